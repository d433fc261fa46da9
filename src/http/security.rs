//! Who may talk to the HTTP endpoints: bearer-token authentication, the
//! DNS-rebinding defence (`Host` and `Origin` allow-lists) and the bind policy.
//!
//! These checks are ours, not rmcp's, so that `/mcp` and `/metrics` follow one
//! rule set; rmcp's own `Host`/`Origin` checks are switched off in
//! [`super::HttpServer::serve`] to avoid two slightly different implementations.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use subtle::ConstantTimeEq;
use tracing::warn;

/// Hosts that name the loopback interface.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The access rules applied to `/mcp` and `/metrics` (not to `/healthz`, `/readyz`).
#[derive(Clone)]
pub struct AccessPolicy {
    token: Option<Arc<[u8]>>,
    hosts: Vec<Authority>,
    any_host: bool,
    origins: Vec<AllowedOrigin>,
    any_origin: bool,
}

impl std::fmt::Debug for AccessPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AccessPolicy")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("hosts", &self.hosts)
            .field("any_host", &self.any_host)
            .field("origins", &self.origins)
            .field("any_origin", &self.any_origin)
            .finish()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Authority {
    host: String,
    /// `None`: any port.
    port: Option<u16>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowedOrigin {
    scheme: String,
    host: String,
    /// `None`: any port.
    port: Option<u16>,
}

impl AccessPolicy {
    /// The policy for a server bound to `bound`: loopback hosts on the bound port
    /// and loopback origins (http or https, any port) are allowed, plus the extra
    /// entries. An extra host is `name` (any port) or `name:port`; an extra origin is
    /// `scheme://host[:port]` (without a port, the scheme's default port); `*`
    /// allows any host or origin.
    pub fn new(
        bound: SocketAddr,
        token: Option<String>,
        extra_hosts: &[String],
        extra_origins: &[String],
    ) -> Result<Self, String> {
        let mut hosts: Vec<Authority> = LOOPBACK_HOSTS
            .iter()
            .map(|h| Authority {
                host: (*h).to_string(),
                port: Some(bound.port()),
            })
            .collect();
        // A Host naming the literal address the server is bound to is no rebinding.
        if !bound.ip().is_unspecified() && !bound.ip().is_loopback() {
            hosts.push(Authority {
                host: bound.ip().to_string(),
                port: Some(bound.port()),
            });
        }
        let mut any_host = false;
        for raw in extra_hosts {
            let raw = raw.trim();
            if raw == "*" {
                any_host = true;
            } else {
                hosts.push(
                    parse_authority(raw, None).ok_or_else(|| {
                        format!("--allowed-host '{raw}' is not a host or host:port")
                    })?,
                );
            }
        }
        let mut origins: Vec<AllowedOrigin> = ["http", "https"]
            .iter()
            .flat_map(|scheme| {
                LOOPBACK_HOSTS.iter().map(move |host| AllowedOrigin {
                    scheme: (*scheme).to_string(),
                    host: (*host).to_string(),
                    port: None,
                })
            })
            .collect();
        let mut any_origin = false;
        for raw in extra_origins {
            let raw = raw.trim();
            if raw == "*" {
                any_origin = true;
            } else {
                let origin = parse_origin(raw).ok_or_else(|| {
                    format!("--allowed-origin '{raw}' is not an origin like https://app.example.com[:port]")
                })?;
                origins.push(origin);
            }
        }
        Ok(AccessPolicy {
            token: token.map(|t| Arc::from(t.into_bytes())),
            hosts,
            any_host,
            origins,
            any_origin,
        })
    }

    /// Whether a bearer token is required.
    pub fn requires_token(&self) -> bool {
        self.token.is_some()
    }

    /// `Err(status, message)` when the request's `Host` or `Origin` is not allowed
    /// (403) or its bearer token is missing or wrong (401).
    pub fn check(&self, headers: &HeaderMap) -> Result<(), (StatusCode, &'static str)> {
        self.check_host_origin(headers)?;
        if self.token.is_some() && !self.bearer_matches(headers) {
            return Err((
                StatusCode::UNAUTHORIZED,
                "Unauthorized: send Authorization: Bearer <token>\n",
            ));
        }
        Ok(())
    }

    /// The rules for the read-only web view under `/ui`: the same `Host`/`Origin`
    /// checks, and the token from the `Authorization` header, a `token` query
    /// parameter (checked first: a wrong one is refused even with a good cookie) or
    /// the [`UI_COOKIE`] cookie. Only [`ui_guard`] calls this; `/mcp` never accepts
    /// the cookie or the query parameter.
    pub fn check_ui(
        &self,
        headers: &HeaderMap,
        query: Option<&str>,
    ) -> Result<UiAuth, (StatusCode, &'static str)> {
        self.check_host_origin(headers)?;
        let Some(token) = &self.token else {
            return Ok(UiAuth::NotRequired);
        };
        let matches = |presented: &str| bool::from(presented.as_bytes().ct_eq(token));
        let refused = Err((
            StatusCode::UNAUTHORIZED,
            "Unauthorized: open /ui?token=<token> once (the page then keeps it in a cookie), or send Authorization: Bearer <token>\n",
        ));
        if let Some(presented) = query.and_then(|q| query_param(q, "token")) {
            return if matches(&presented) {
                Ok(UiAuth::Query(presented))
            } else {
                refused
            };
        }
        if headers.contains_key(header::AUTHORIZATION) {
            return if self.bearer_matches(headers) {
                Ok(UiAuth::Header)
            } else {
                refused
            };
        }
        let from_cookie = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(name, _)| *name == UI_COOKIE)
            .any(|(_, value)| {
                percent_decode_str(value)
                    .decode_utf8()
                    .is_ok_and(|v| matches(&v))
            });
        if from_cookie {
            Ok(UiAuth::Cookie)
        } else {
            refused
        }
    }

    /// The `Host` and `Origin` allow-lists (403 when refused).
    fn check_host_origin(&self, headers: &HeaderMap) -> Result<(), (StatusCode, &'static str)> {
        if !self.any_host {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .and_then(|h| parse_authority(h, Some(80)));
            let allowed = host.is_some_and(|host| {
                self.hosts
                    .iter()
                    .any(|a| a.host == host.host && a.port.is_none_or(|p| Some(p) == host.port))
            });
            if !allowed {
                warn!(host = ?headers.get(header::HOST), "refused a request with a Host that is not allowed (possible DNS rebinding); allow it with --allowed-host");
                return Err((
                    StatusCode::FORBIDDEN,
                    "Forbidden: Host header is not allowed (see --allowed-host)\n",
                ));
            }
        }
        if !self.any_origin
            && let Some(origin) = headers.get(header::ORIGIN)
        {
            let parsed = origin.to_str().ok().and_then(parse_origin);
            let allowed = parsed.is_some_and(|o| {
                self.origins.iter().any(|a| {
                    a.scheme == o.scheme
                        && a.host == o.host
                        && a.port.is_none_or(|p| Some(p) == o.port)
                })
            });
            if !allowed {
                warn!(
                    ?origin,
                    "refused a request with an Origin that is not allowed; allow it with --allowed-origin"
                );
                return Err((
                    StatusCode::FORBIDDEN,
                    "Forbidden: Origin header is not allowed (see --allowed-origin)\n",
                ));
            }
        }
        Ok(())
    }

    /// Whether the `Authorization: Bearer` header carries the token (constant time).
    fn bearer_matches(&self, headers: &HeaderMap) -> bool {
        let Some(token) = &self.token else {
            return true;
        };
        headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, rest) = v.split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
            })
            .is_some_and(|p| bool::from(p.as_bytes().ct_eq(token)))
    }
}

/// The answer to a refused request; a 401 names the scheme a client should use.
fn refusal(status: StatusCode, message: impl IntoResponse) -> Response {
    let mut response = (status, message).into_response();
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"networks-mcp\""),
        );
    }
    response
}

/// Axum middleware applying an [`AccessPolicy`].
pub async fn guard(
    State(policy): State<Arc<AccessPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    match policy.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err((status, message)) => refusal(status, message),
    }
}

/// The cookie holding the token for the web view. `Path=/ui`, so a browser never
/// sends it to `/mcp`, which would refuse it anyway.
pub const UI_COOKIE: &str = "networks_mcp_ui";

/// How a `/ui` request passed [`AccessPolicy::check_ui`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UiAuth {
    /// No token is configured.
    NotRequired,
    /// `Authorization: Bearer`.
    Header,
    /// The [`UI_COOKIE`] cookie.
    Cookie,
    /// The `token` query parameter (its value): the reply sets the cookie.
    Query(String),
}

/// Axum middleware for `/ui`: [`AccessPolicy::check_ui`]. A good `?token=` sets
/// the [`UI_COOKIE`] cookie (HttpOnly, SameSite=Strict, Path=/ui); on the page
/// itself (`GET /ui`) the reply is a redirect to the same URL without the token, so
/// the token does not stay in the address bar, history or bookmarks.
pub async fn ui_guard(
    State(policy): State<Arc<AccessPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    match policy.check_ui(request.headers(), request.uri().query()) {
        Ok(UiAuth::Query(token)) => {
            let cookie = format!(
                "{UI_COOKIE}={}; HttpOnly; SameSite=Strict; Path=/ui",
                utf8_percent_encode(&token, NON_ALPHANUMERIC)
            );
            let path = request.uri().path();
            let mut response =
                if request.method() == Method::GET && (path == "/ui" || path == "/ui/") {
                    let rest = without_param(request.uri().query().unwrap_or(""), "token");
                    let location = if rest.is_empty() {
                        "/ui".to_string()
                    } else {
                        format!("/ui?{rest}")
                    };
                    (
                        StatusCode::SEE_OTHER,
                        [(header::LOCATION, location)],
                        "See Other\n",
                    )
                        .into_response()
                } else {
                    next.run(request).await
                };
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            response
        }
        Ok(_) => next.run(request).await,
        Err((status, message)) => refusal(status, message),
    }
}

/// The decoded value of the first `name=` parameter of a query string
/// (`application/x-www-form-urlencoded`: `+` is a space).
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        (decode_component(key) == name).then(|| decode_component(value))
    })
}

fn decode_component(raw: &str) -> String {
    percent_decode_str(&raw.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// The query string without any `name=` parameter.
fn without_param(query: &str, name: &str) -> String {
    query
        .split('&')
        .filter(|pair| {
            !pair.is_empty()
                && decode_component(pair.split_once('=').map_or(*pair, |p| p.0)) != name
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// `host[:port]` (IPv6 in brackets) → lower-case host without brackets and the port
/// (`default_port` when absent).
fn parse_authority(raw: &str, default_port: Option<u16>) -> Option<Authority> {
    let authority: axum::http::uri::Authority = raw.trim().parse().ok()?;
    if authority.as_str().contains('@') {
        return None;
    }
    Some(Authority {
        host: normalize_host(authority.host()),
        port: authority.port_u16().or(default_port),
    })
}

/// `scheme://host[:port]` → its parts; the port defaults to the scheme's.
fn parse_origin(raw: &str) -> Option<AllowedOrigin> {
    let uri: axum::http::Uri = raw.trim().parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = uri.authority()?;
    let port = authority.port_u16().or(match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    });
    Some(AllowedOrigin {
        scheme,
        host: normalize_host(authority.host()),
        port,
    })
}

fn normalize_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        map
    }

    fn policy(token: Option<&str>) -> AccessPolicy {
        AccessPolicy::new(
            "127.0.0.1:8080".parse().unwrap(),
            token.map(str::to_string),
            &["mcp.example.com".into()],
            &["https://app.example.com".into()],
        )
        .unwrap()
    }

    #[test]
    fn hosts() {
        let p = policy(None);
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "LOCALHOST:8080",
            "mcp.example.com",
            "mcp.example.com:443",
        ] {
            assert!(p.check(&headers(&[("host", ok)])).is_ok(), "{ok}");
        }
        for bad in [
            "evil.com",
            "evil.com:8080",
            "localhost:9090",
            "localhost",
            "user@localhost:8080",
        ] {
            assert_eq!(
                p.check(&headers(&[("host", bad)])).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{bad}"
            );
        }
        assert!(p.check(&HeaderMap::new()).is_err());
    }

    #[test]
    fn origins() {
        let p = policy(None);
        let host = ("host", "localhost:8080");
        for ok in [
            "http://localhost:3000",
            "https://127.0.0.1",
            "http://[::1]:8080",
            "https://app.example.com",
            "https://app.example.com:443",
        ] {
            assert!(p.check(&headers(&[host, ("origin", ok)])).is_ok(), "{ok}");
        }
        for bad in [
            "http://evil.com",
            "null",
            "https://app.example.com:8443",
            "http://app.example.com",
            "garbage",
        ] {
            assert_eq!(
                p.check(&headers(&[host, ("origin", bad)])).unwrap_err().0,
                StatusCode::FORBIDDEN,
                "{bad}"
            );
        }
    }

    #[test]
    fn tokens() {
        let p = policy(Some("s3cret"));
        let host = ("host", "localhost:8080");
        assert_eq!(
            p.check(&headers(&[host])).unwrap_err().0,
            StatusCode::UNAUTHORIZED
        );
        for bad in ["Bearer nope", "Bearer s3cre", "Basic s3cret", "s3cret"] {
            assert_eq!(
                p.check(&headers(&[host, ("authorization", bad)]))
                    .unwrap_err()
                    .0,
                StatusCode::UNAUTHORIZED
            );
        }
        assert!(
            p.check(&headers(&[host, ("authorization", "Bearer s3cret")]))
                .is_ok()
        );
        assert!(
            p.check(&headers(&[host, ("authorization", "bearer s3cret")]))
                .is_ok()
        );
        assert!(!format!("{p:?}").contains("s3cret"));
    }

    #[test]
    fn ui_token_from_header_query_or_cookie() {
        let p = policy(Some("s3 cr;t"));
        let host = ("host", "localhost:8080");
        let ui = |pairs: &[(&'static str, &str)], query: Option<&str>| {
            p.check_ui(&headers(pairs), query).map_err(|e| e.0)
        };
        assert_eq!(ui(&[host], None), Err(StatusCode::UNAUTHORIZED));
        assert_eq!(
            ui(&[host, ("authorization", "Bearer s3 cr;t")], None),
            Ok(UiAuth::Header)
        );
        assert_eq!(
            ui(&[host], Some("network=a&token=s3+cr%3Bt")),
            Ok(UiAuth::Query("s3 cr;t".into()))
        );
        assert_eq!(
            ui(&[host], Some("token=wrong")),
            Err(StatusCode::UNAUTHORIZED)
        );
        let cookie = ("cookie", "a=b; networks_mcp_ui=s3%20cr%3Bt");
        assert_eq!(ui(&[host, cookie], None), Ok(UiAuth::Cookie));
        assert_eq!(
            ui(&[host, ("cookie", "networks_mcp_ui=nope")], None),
            Err(StatusCode::UNAUTHORIZED)
        );
        // A wrong query token is refused even next to a good cookie.
        assert_eq!(
            ui(&[host, cookie], Some("token=nope")),
            Err(StatusCode::UNAUTHORIZED)
        );
        // Host and Origin still apply.
        assert_eq!(
            ui(&[("host", "evil.com"), cookie], None),
            Err(StatusCode::FORBIDDEN)
        );
        // The cookie never satisfies the /mcp rules.
        assert_eq!(
            p.check(&headers(&[host, cookie])).unwrap_err().0,
            StatusCode::UNAUTHORIZED
        );
        let open = policy(None);
        assert_eq!(
            open.check_ui(&headers(&[host]), None),
            Ok(UiAuth::NotRequired)
        );
    }

    #[test]
    fn query_helpers() {
        assert_eq!(query_param("a=1&b=x+y%21", "b").as_deref(), Some("x y!"));
        assert_eq!(query_param("a=1", "b"), None);
        assert_eq!(
            without_param("token=x&network=n&token=y", "token"),
            "network=n"
        );
        assert_eq!(without_param("token=x", "token"), "");
    }

    #[test]
    fn wildcards_and_bad_entries() {
        let p = AccessPolicy::new(
            "0.0.0.0:80".parse().unwrap(),
            None,
            &["*".into()],
            &["*".into()],
        )
        .unwrap();
        assert!(
            p.check(&headers(&[("host", "x.y"), ("origin", "http://z")]))
                .is_ok()
        );
        assert!(
            AccessPolicy::new("127.0.0.1:1".parse().unwrap(), None, &["a b".into()], &[]).is_err()
        );
        assert!(
            AccessPolicy::new("127.0.0.1:1".parse().unwrap(), None, &[], &["nope".into()]).is_err()
        );
    }
}
