//! Who may talk to the HTTP endpoints: bearer-token authentication, the
//! DNS-rebinding defence (`Host` and `Origin` allow-lists) and the bind policy.
//!
//! These checks are ours, not rmcp's, so that `/mcp` and `/metrics` follow one
//! rule set; rmcp's own `Host`/`Origin` checks are switched off in
//! [`super::HttpServer::serve`] to avoid two slightly different implementations.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
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
        if let Some(token) = &self.token {
            let presented = headers
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    let (scheme, rest) = v.split_once(' ')?;
                    scheme.eq_ignore_ascii_case("bearer").then(|| rest.trim())
                });
            let ok = presented.is_some_and(|p| bool::from(p.as_bytes().ct_eq(token)));
            if !ok {
                return Err((
                    StatusCode::UNAUTHORIZED,
                    "Unauthorized: send Authorization: Bearer <token>\n",
                ));
            }
        }
        Ok(())
    }
}

/// Axum middleware applying an [`AccessPolicy`].
pub async fn guard(
    State(policy): State<Arc<AccessPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    match policy.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err((status, message)) => {
            let mut response = (status, message).into_response();
            if status == StatusCode::UNAUTHORIZED {
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static("Bearer realm=\"networks-mcp\""),
                );
            }
            response
        }
    }
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
