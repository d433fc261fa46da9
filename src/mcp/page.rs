//! Cursors: how every list result is read page by page.
//!
//! A list result is computed in a deterministic order, and a page is the slice
//! `[offset, offset + limit)` of it. The cursor that asks for the next page names
//! three things:
//! - the state of the network it was made on (the network's instance and
//!   version), so that a page is never taken from a different answer: after any
//!   change the cursor is refused with `cursor_stale`, and the caller starts again;
//! - the call it continues (a hash of the tool and of its parameters other than
//!   `limit` and `cursor`), so that a cursor is never applied to another question;
//! - the offset of the next item.
//!
//! So paging through a whole result yields exactly the unpaged result, each item
//! once, or fails loudly; it never silently skips or repeats. The text is opaque to
//! the caller: `c1.<instance>.<version>.<call>.<offset>` in hexadecimal.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::error::{Error, Result};
use crate::network::Network;

/// The prefix that marks this format of cursor.
const FORMAT: &str = "c1";

/// One page of a list result.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Page {
    /// Index of the first item of the page in the whole result.
    pub offset: usize,
    /// The most items the page holds.
    pub limit: usize,
    /// The largest `limit` the tool accepts, named when a reply is cut.
    max_limit: usize,
    instance: u64,
    version: u64,
    call: u64,
}

impl Page {
    /// The page that `cursor` asks for (the first when `None`) of the call
    /// `tool(query)` on `network`, `limit` items long.
    pub fn open(
        network: &Network,
        tool: &str,
        query: impl Hash,
        cursor: Option<&str>,
        limit: usize,
        max_limit: usize,
    ) -> Result<Page> {
        let mut hasher = DefaultHasher::new();
        tool.hash(&mut hasher);
        network.name().hash(&mut hasher);
        query.hash(&mut hasher);
        let call = hasher.finish();
        let mut page = Page {
            offset: 0,
            limit,
            max_limit,
            instance: network.instance(),
            version: network.version(),
            call,
        };
        if let Some(text) = cursor {
            let cursor = Cursor::parse(text)?;
            if cursor.call != call {
                return Err(Error::InvalidValue {
                    field: "cursor".into(),
                    reason: "this cursor continues a different call (another tool, network or parameters). Repeat the call that returned it, changing only cursor (and limit, if you like), or omit cursor to start again".into(),
                });
            }
            if (cursor.instance, cursor.version) != (page.instance, page.version) {
                return Err(Error::CursorStale {
                    network: network.name().to_string(),
                    made_at: cursor.version,
                    now: network.version(),
                });
            }
            page.offset = cursor.offset;
        }
        Ok(page)
    }

    /// One past the index of the last item the page can hold.
    pub fn end(&self) -> usize {
        self.offset.saturating_add(self.limit)
    }

    /// This page of `items`, the whole result.
    pub fn slice<'a, T>(&self, items: &'a [T]) -> &'a [T] {
        let start = self.offset.min(items.len());
        let end = self.end().min(items.len());
        &items[start..end]
    }

    /// The cursor of the next page, when the result holds more than this page.
    /// `more` says whether anything lies beyond [`Page::end`] (a total when it is
    /// known, or whether a bounded computation stopped early).
    pub fn next(&self, more: bool) -> Option<String> {
        more.then(|| {
            Cursor {
                instance: self.instance,
                version: self.version,
                call: self.call,
                offset: self.end(),
            }
            .to_string()
        })
    }

    /// What a cut reply says about getting the rest: `returned` items were shown
    /// from `offset`, of `total` when it is known.
    pub fn more(
        &self,
        returned: usize,
        total: Option<usize>,
        next: &Option<String>,
    ) -> Option<String> {
        next.as_ref()?;
        let first = self.offset.saturating_add(1);
        let last = self.offset.saturating_add(returned);
        let of = total.map(|t| format!(" of {t}")).unwrap_or_default();
        let raise = if self.limit < self.max_limit {
            format!(", or raise limit (at most {})", self.max_limit)
        } else {
            String::new()
        };
        Some(format!(
            "Items {first}-{last}{of} shown. For the next page, repeat the call with cursor set to next_cursor{raise}."
        ))
    }
}

/// A decoded cursor.
#[derive(Debug, PartialEq, Eq)]
struct Cursor {
    instance: u64,
    version: u64,
    call: u64,
    offset: usize,
}

impl Cursor {
    fn parse(text: &str) -> Result<Cursor> {
        let invalid = || Error::InvalidValue {
            field: "cursor".into(),
            reason: format!(
                "'{}' is not a cursor this server made. Pass the next_cursor of the previous page unchanged, or omit cursor for the first page",
                crate::error::clip(text, 80)
            ),
        };
        let mut parts = text.split('.');
        if parts.next() != Some(FORMAT) {
            return Err(invalid());
        }
        let mut number = || {
            parts
                .next()
                .and_then(|part| u64::from_str_radix(part, 16).ok())
                .ok_or_else(invalid)
        };
        let cursor = Cursor {
            instance: number()?,
            version: number()?,
            call: number()?,
            offset: usize::try_from(number()?).map_err(|_| invalid())?,
        };
        if parts.next().is_some() {
            return Err(invalid());
        }
        Ok(cursor)
    }
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{FORMAT}.{:x}.{:x}.{:x}.{:x}",
            self.instance, self.version, self.call, self.offset
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_and_rejects_what_it_did_not_make() {
        let cursor = Cursor {
            instance: 7,
            version: 42,
            call: u64::MAX,
            offset: 100,
        };
        assert_eq!(Cursor::parse(&cursor.to_string()).unwrap(), cursor);
        for bad in [
            "",
            "100",
            "c1.7.2a",
            "c1.7.2a.ff.64.1",
            "c2.7.2a.ff.64",
            "c1.x.2a.ff.64",
        ] {
            assert_eq!(
                Cursor::parse(bad).unwrap_err().code(),
                "invalid_value",
                "{bad}"
            );
        }
    }

    #[test]
    fn a_cursor_goes_stale_when_the_network_changes_and_is_bound_to_its_call() {
        let mut net = Network::named("plan");
        net.add_node("a").unwrap();
        let first = Page::open(&net, "t", ("a", 1), None, 1, 10).unwrap();
        let next = first.next(true).unwrap();
        let second = Page::open(&net, "t", ("a", 1), Some(&next), 1, 10).unwrap();
        assert_eq!(second.offset, 1);
        let other = Page::open(&net, "t", ("b", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(other.code(), "invalid_value");
        net.add_node("b").unwrap();
        let stale = Page::open(&net, "t", ("a", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(stale.code(), "cursor_stale");
        let again = Network::named("plan");
        let stale = Page::open(&again, "t", ("a", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(
            stale.code(),
            "cursor_stale",
            "a new network under the same name"
        );
    }
}
