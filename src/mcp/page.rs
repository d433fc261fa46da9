//! Cursors: how every list result is read page by page.
//!
//! A list result is computed in a deterministic order, and a page is the slice
//! `[offset, offset + limit)` of it, or a shorter one when the reply's byte
//! bound (`--max-reply-bytes`) comes first. The cursor that asks for the next
//! page names four things:
//! - the state of the network it was made on (the network's instance and
//!   version), so that a page is never taken from a different answer: after any
//!   change the cursor is refused with `cursor_stale`, and the caller starts again;
//! - the call it continues (a hash of the tool and of its parameters other than
//!   `limit` and `cursor`), so that a cursor is never applied to another question;
//! - the offset of the next item: where this page stopped, by `limit` or by bytes;
//! - a tag, a hash of all of the above keyed with a random key drawn once per
//!   process, so that an edited cursor is refused with `invalid_value` instead of
//!   answering some other page. Cursors die with the process anyway (instances
//!   are numbered per process), so the key needs no storing.
//!
//! So paging through a whole result yields exactly the unpaged result, each item
//! once, or fails loudly; it never silently skips or repeats.
//!
//! A cursor needs nothing kept on the server. Tools whose answer costs more than
//! a page (a diff, a ranking, a partition, a search) may read a later page from
//! the answer the server kept for the first ([`crate::mcp::answers`]), keyed by
//! the same question and network states; that is only a shortcut, and a page
//! whose answer was not kept computes it again. The text is opaque to
//! the caller: `c2.<instance>.<version>.<call>.<offset>.<tag>` in hexadecimal.
//!
//! An item of a list can be a list itself (a group's members): its own pages
//! have a members cursor (`members_page`), `m2.<instance>.<version>.<call>.<group>.<offset>.<tag>`,
//! made on the same state and call as the list's pages, so it goes stale with
//! them. [`Page::members`] opens such a page; a cursor of one kind passed as the
//! other is refused with advice.
//!
//! A list that is not a network's (the registry's list of networks) names its
//! own state ([`State`]) instead of a network's instance and version.
//!
//! The byte bound: a page holds items while their serialized size fits the
//! page's budget ([`Page::fill`]), measured one item at a time as the page is
//! built, so an oversized reply is never built first. A page cut by bytes says so
//! in `more` and its cursor continues at the first item left out. An item larger
//! than the whole budget alone is cut by the tool ([`Page::fill_cut`]) and marked.

use std::cell::Cell;
use std::hash::{BuildHasher, DefaultHasher, Hash, Hasher, RandomState};
use std::sync::OnceLock;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::mcp::tool::ToolContext;
use crate::network::Network;

/// The most bytes a reply takes on the wire when the call leaves `limit` out:
/// about 2k tokens. A page of such a call stops at [`DEFAULT_ITEM_BYTES`].
pub(crate) const DEFAULT_REPLY_BYTES: usize = 8 * 1024;

/// The bytes a page's items may take in a call that leaves `limit` out: the
/// default reply size less room for the result's other fields and notes.
pub(crate) const DEFAULT_ITEM_BYTES: usize = DEFAULT_REPLY_BYTES - 5 * 512;

/// The prefix that marks this format of cursor.
const FORMAT: &str = "c2";

/// The prefix of a members cursor: a page of one group's members.
const MEMBERS: &str = "m2";

/// What a page is taken from: a network's state, or another list's (the
/// registry's) named by a name and a number that changes when it does.
#[derive(Debug, Clone, Copy)]
pub(crate) struct State<'a> {
    /// The network's name (empty for a list that is no network's).
    pub name: &'a str,
    /// The network's instance.
    pub instance: u64,
    /// The network's version, or a fingerprint of the list.
    pub version: u64,
}

impl<'a> From<&'a Network> for State<'a> {
    fn from(net: &'a Network) -> Self {
        State {
            name: net.name(),
            instance: net.instance(),
            version: net.version(),
        }
    }
}

/// The key of every cursor's tag: drawn from the OS once per process.
fn key() -> &'static RandomState {
    static KEY: OnceLock<RandomState> = OnceLock::new();
    KEY.get_or_init(RandomState::new)
}

/// What `value` adds to a reply on the wire, in bytes. A tool result is sent
/// twice, as `structuredContent` and as the text of its first content block,
/// where every `"` and `\` of the JSON is escaped once more: so twice its
/// serialized length plus one per such byte. Counted while serializing, without
/// building the text.
pub(crate) fn reply_bytes(value: &impl Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let escaped = buf.iter().filter(|&&b| b == b'"' || b == b'\\').count();
            self.0 = self.0.saturating_add(2 * buf.len()).saturating_add(escaped);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // A value that cannot be serialized costs what was written before it failed;
    // the reply's own serialization reports the failure.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The JSON-RPC envelope of a tool result, in bytes: `{"jsonrpc":"2.0","id":…,
/// "result":{"content":[{"type":"text","text":…}],"structuredContent":…}}`.
pub(crate) const ENVELOPE_BYTES: usize = 256;

/// What a document adds to a reply on the wire, sent once as an embedded
/// resource block: its text as a JSON string (escaped once), its URI and MIME
/// type, and the block's own keys.
pub(crate) fn resource_bytes(text: &str, uri: &str, mime_type: &str) -> usize {
    /// `{"type":"resource","resource":{"uri":"","mimeType":"","text":}}`.
    const KEYS: usize = 64;
    crate::limits::json_str_bytes(text)
        .saturating_add(uri.len())
        .saturating_add(mime_type.len())
        .saturating_add(KEYS)
}

/// For a list outside any page (a summary's examples): as many of `items` as
/// fit in `left` bytes, which they are taken off; and whether any was left out.
pub(crate) fn fit<T: Serialize>(
    items: impl IntoIterator<Item = T>,
    left: &mut usize,
) -> (Vec<T>, bool) {
    let mut out = Vec::new();
    for item in items {
        let bytes = reply_bytes(&item);
        if bytes > *left {
            return (out, true);
        }
        *left -= bytes;
        out.push(item);
    }
    (out, false)
}

/// Cuts `item` until it takes at most `bytes` bytes: `halve` halves its lists
/// and answers false once there is nothing left to cut. A logarithmic number of
/// measurements, each linear in the item.
pub(crate) fn shrink_to<T: Serialize>(
    item: &mut T,
    bytes: usize,
    mut halve: impl FnMut(&mut T) -> bool,
) {
    while reply_bytes(item) > bytes && halve(item) {}
}

/// Halves `list`, keeping its front: false when it is empty already.
pub(crate) fn halve<T>(list: &mut Vec<T>) -> bool {
    if list.is_empty() {
        return false;
    }
    list.truncate(list.len() / 2);
    true
}

/// Halves `map`, keeping its first keys: false when it is empty already.
pub(crate) fn halve_map(map: &mut serde_json::Map<String, serde_json::Value>) -> bool {
    if map.is_empty() {
        return false;
    }
    let mut keep = map.len() / 2;
    map.retain(|_, _| {
        let kept = keep > 0;
        keep = keep.saturating_sub(1);
        kept
    });
    true
}

/// One page of a list result.
#[derive(Debug, Clone)]
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
    /// The bytes this page's items may take on the wire (see [`reply_bytes`]).
    budget: usize,
    /// The reply's byte bound, named when a page stops at it.
    reply_bound: usize,
    /// Whether `budget` is the default reply size's ([`DEFAULT_ITEM_BYTES`]):
    /// the call left `limit` out.
    by_default: bool,
    /// Bytes taken so far by [`Page::fill`] and [`Page::charge`].
    spent: Cell<usize>,
    /// Items of the result taken so far by [`Page::fill`].
    taken: Cell<usize>,
    /// Whether an item was left out for want of bytes: the page ends at
    /// `offset + taken` and says so.
    stopped: Cell<bool>,
    /// Whether an item was cut to fit: nothing more fits after it.
    full: Cell<bool>,
    /// On a page of one group's members: that group's position in the list,
    /// and the parameter that sizes the page (named in [`Page::more`]).
    group: Option<(usize, &'static str)>,
}

impl Page {
    /// The page that `cursor` asks for (the first when `None`) of the call
    /// `tool(query)` on `network`, `limit` items long, its items bounded to the
    /// bytes `ctx`'s limits leave for them.
    pub fn open(
        ctx: &ToolContext<'_>,
        network: &Network,
        tool: &str,
        query: impl Hash,
        cursor: Option<&str>,
        limit: usize,
        max_limit: usize,
    ) -> Result<Page> {
        Page::open_on(ctx, network.into(), tool, query, cursor, limit, max_limit)
    }

    /// [`Page::open`] on a list's `state`, a network's or another's.
    pub fn open_on(
        ctx: &ToolContext<'_>,
        state: State<'_>,
        tool: &str,
        query: impl Hash,
        cursor: Option<&str>,
        limit: usize,
        max_limit: usize,
    ) -> Result<Page> {
        let mut page = Page::first(ctx, state, tool, query, limit, max_limit);
        if let Some(text) = cursor {
            let cursor = Cursor::parse(text, "cursor")?;
            if cursor.group.is_some() {
                return Err(Error::InvalidValue {
                    field: "cursor".into(),
                    reason: "this is a group's members_page, which pages through that group's members: pass it as members_page instead, or pass a next_cursor as cursor".into(),
                });
            }
            page.resume(&cursor, state, "cursor", "limit")?;
        }
        Ok(page)
    }

    /// The page of one group's members that the members cursor `cursor` (from
    /// [`Page::members_cursor`] or a members page's [`Page::next`]) asks for:
    /// `limit` members long, `limit_field` the parameter that sets it. The
    /// group's position in the list is [`Page::group`].
    #[allow(clippy::too_many_arguments)]
    pub fn members(
        ctx: &ToolContext<'_>,
        network: &Network,
        tool: &str,
        query: impl Hash,
        cursor: &str,
        limit: usize,
        max_limit: usize,
        limit_field: &'static str,
    ) -> Result<Page> {
        let state = network.into();
        let mut page = Page::first(ctx, state, tool, query, limit, max_limit);
        let parsed = Cursor::parse(cursor, "members_page")?;
        let Some(group) = parsed.group else {
            return Err(Error::InvalidValue {
                field: "members_page".into(),
                reason: "this is a next_cursor, which pages through the groups: pass it as cursor instead, or pass a group's members_page as members_page".into(),
            });
        };
        page.resume(&parsed, state, "members_page", limit_field)?;
        page.group = Some((group, limit_field));
        Ok(page)
    }

    /// A first page, at offset 0.
    fn first(
        ctx: &ToolContext<'_>,
        state: State<'_>,
        tool: &str,
        query: impl Hash,
        limit: usize,
        max_limit: usize,
    ) -> Page {
        let mut hasher = DefaultHasher::new();
        tool.hash(&mut hasher);
        state.name.hash(&mut hasher);
        query.hash(&mut hasher);
        let bound = ctx.limits.reply_item_bytes();
        let by_default = ctx.default_sized && DEFAULT_ITEM_BYTES < bound;
        Page {
            offset: 0,
            limit,
            max_limit,
            instance: state.instance,
            version: state.version,
            call: hasher.finish(),
            budget: if by_default {
                DEFAULT_ITEM_BYTES
            } else {
                bound
            },
            reply_bound: ctx.limits.max_reply_bytes,
            by_default,
            spent: Cell::new(0),
            taken: Cell::new(0),
            stopped: Cell::new(false),
            full: Cell::new(false),
            group: None,
        }
    }

    /// Moves the page to where `cursor` continues, once it is checked against
    /// the call and the state.
    /// `field` names the parameter that carried the cursor, `limit_field` the
    /// one that sizes the page.
    fn resume(
        &mut self,
        cursor: &Cursor,
        state: State<'_>,
        field: &str,
        limit_field: &str,
    ) -> Result<()> {
        if cursor.call != self.call {
            return Err(Error::InvalidValue {
                field: field.into(),
                reason: format!(
                    "this {field} continues a different call (another tool, network or parameters). Repeat the call that returned it, changing only {field} (and {limit_field}, if you like), or omit {field} to start again"
                ),
            });
        }
        if (cursor.instance, cursor.version) != (self.instance, self.version) {
            return Err(Error::CursorStale {
                network: state.name.to_string(),
                made_at: cursor.version,
                now: state.version,
            });
        }
        self.offset = cursor.offset;
        Ok(())
    }

    /// Whether the page stopped at its byte budget before `limit`.
    pub fn stopped_at_bytes(&self) -> bool {
        self.stopped.get()
    }

    /// On a page of one group's members, that group's position in the list.
    pub fn group(&self) -> Option<usize> {
        self.group.map(|(group, _)| group)
    }

    /// The members cursor of the group at `group` in this page's list, for its
    /// members from `offset` on: made on the same state and call as the page.
    pub fn members_cursor(&self, group: usize, offset: usize) -> String {
        Cursor {
            instance: self.instance,
            version: self.version,
            call: self.call,
            offset,
            group: Some(group),
        }
        .to_string()
    }

    /// Ends the page after its first `items` items (at most `limit`): a tool
    /// that pages by groups (a topological sort's layers) ends on a group's
    /// boundary, and the next page starts at the next group.
    pub fn shorten(&mut self, items: usize) {
        self.limit = self.limit.min(items.max(1));
    }

    /// Keeps only the first `items` of the items [`Page::fill`] took, when the
    /// page stopped at its byte budget: the next page starts after them (a
    /// tool ends such a page on a group's boundary too).
    pub fn keep(&self, items: usize) {
        if self.stopped.get() && items < self.taken.get() {
            self.taken.set(items);
        }
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

    /// The items of this page, in order, as many of `items` (the page's items,
    /// from `offset` on) as fit the page's byte budget; each is measured as it is
    /// taken, so nothing past the budget is built. The first item of a page is
    /// always taken, whole: use [`Page::fill_cut`] for items that can be larger
    /// than the whole budget alone.
    pub fn fill<T: Serialize>(&self, items: impl IntoIterator<Item = T>) -> Vec<T> {
        self.fill_cut(items, |item, _| item)
    }

    /// [`Page::fill`], where an item larger than the bytes left when it is the
    /// page's first is passed to `cut(item, bytes)`, which shortens it to about
    /// `bytes` and marks it as cut; the page ends after it.
    pub fn fill_cut<T: Serialize>(
        &self,
        items: impl IntoIterator<Item = T>,
        mut cut: impl FnMut(T, usize) -> T,
    ) -> Vec<T> {
        let mut out = Vec::new();
        for item in items {
            if self.stopped.get() {
                break;
            }
            if self.full.get() {
                self.stopped.set(true);
                break;
            }
            let bytes = reply_bytes(&item);
            let left = self.budget.saturating_sub(self.spent.get());
            let item = if bytes <= left {
                self.spent.set(self.spent.get().saturating_add(bytes));
                item
            } else if self.taken.get() == 0 && out.is_empty() {
                // Alone larger than the page: cut rather than never progress.
                let item = cut(item, left);
                self.spent.set(self.budget);
                self.full.set(true);
                item
            } else {
                self.stopped.set(true);
                break;
            };
            out.push(item);
            self.taken.set(self.taken.get().saturating_add(1));
        }
        out
    }

    /// Charges `item`, a part of the reply that is not a paged item (an example
    /// list beside the page), to the page's budget: false, and nothing charged,
    /// when it does not fit. Leaves the page's items and cursor as they are.
    pub fn charge(&self, item: &impl Serialize) -> bool {
        let bytes = reply_bytes(item);
        let left = self.budget.saturating_sub(self.spent.get());
        if bytes > left {
            return false;
        }
        self.spent.set(self.spent.get().saturating_add(bytes));
        true
    }

    /// The cursor of the next page, when the result holds more than this page.
    /// `more` says whether anything lies beyond [`Page::end`] (a total when it is
    /// known, or whether a bounded computation stopped early). A page that
    /// stopped at its byte budget continues at its first item left out.
    pub fn next(&self, more: bool) -> Option<String> {
        let offset = if self.stopped.get() {
            self.offset.saturating_add(self.taken.get())
        } else if more {
            self.end()
        } else {
            return None;
        };
        Some(
            Cursor {
                instance: self.instance,
                version: self.version,
                call: self.call,
                offset,
                group: self.group(),
            }
            .to_string(),
        )
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
        let (what, field, limit_field) = match self.group {
            Some((_, limit_field)) => (
                "Members",
                "members_page set to the group's members_page",
                limit_field,
            ),
            None => ("Items", "cursor set to next_cursor", "limit"),
        };
        // "Items 4-6", or "Item 4" for one.
        let span = if first == last {
            format!("{} {first}", what.trim_end_matches('s'))
        } else {
            format!("{what} {first}-{last}")
        };
        if self.stopped.get() && self.by_default {
            return Some(format!(
                "{span}{of} shown: without {limit_field}, a reply stops at about {} KB. For the next page, repeat the call with {field}; give {limit_field} (at most {}) for longer pages.",
                DEFAULT_REPLY_BYTES / 1024,
                self.max_limit
            ));
        }
        if self.stopped.get() {
            return Some(format!(
                "{span}{of} shown: the page stopped at the reply size bound ({} bytes, --max-reply-bytes) before {limit_field}. For the next page, repeat the call with {field}.",
                self.reply_bound
            ));
        }
        let raise = if self.limit < self.max_limit {
            format!(", or raise {limit_field} (at most {})", self.max_limit)
        } else {
            String::new()
        };
        Some(format!(
            "{span}{of} shown. For the next page, repeat the call with {field}{raise}."
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
    /// A members cursor's group.
    group: Option<usize>,
}

impl Cursor {
    /// The text before the tag: the fields, in the one spelling this server writes.
    fn body(&self) -> String {
        match self.group {
            None => format!(
                "{FORMAT}.{:x}.{:x}.{:x}.{:x}",
                self.instance, self.version, self.call, self.offset
            ),
            Some(group) => format!(
                "{MEMBERS}.{:x}.{:x}.{:x}.{:x}.{:x}",
                self.instance, self.version, self.call, group, self.offset
            ),
        }
    }

    /// The tag of `body`: keyed SipHash, so that it cannot be recomputed by a
    /// client, and over the text, so that no other spelling of the same numbers
    /// (upper case, leading zeros) passes either.
    fn tag(body: &str) -> String {
        format!("{:016x}", key().hash_one(body))
    }

    /// `field` names the parameter that carried it: `cursor` for a
    /// `next_cursor`, `members_page` for a group's `members_page`.
    fn parse(text: &str, field: &str) -> Result<Cursor> {
        let given = if field == "cursor" {
            "next_cursor"
        } else {
            field
        };
        let invalid = || Error::InvalidValue {
            field: field.into(),
            reason: format!(
                "'{}' is not a cursor this server made (cursors are checked, and one that was edited, or made before a restart, is refused). Pass the {given} of the previous page unchanged, or omit {field} for the first page",
                crate::error::clip(text, 80)
            ),
        };
        let (body, tag) = text.rsplit_once('.').ok_or_else(invalid)?;
        if Cursor::tag(body) != tag {
            return Err(invalid());
        }
        let mut parts = body.split('.');
        let members = match parts.next() {
            Some(FORMAT) => false,
            Some(MEMBERS) => true,
            _ => return Err(invalid()),
        };
        let mut number = || {
            parts
                .next()
                .and_then(|part| u64::from_str_radix(part, 16).ok())
                .ok_or_else(invalid)
        };
        let instance = number()?;
        let version = number()?;
        let call = number()?;
        let group = if members {
            Some(usize::try_from(number()?).map_err(|_| invalid())?)
        } else {
            None
        };
        let offset = usize::try_from(number()?).map_err(|_| invalid())?;
        let cursor = Cursor {
            instance,
            version,
            call,
            offset,
            group,
        };
        if parts.next().is_some() {
            return Err(invalid());
        }
        Ok(cursor)
    }
}

impl std::fmt::Display for Cursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let body = self.body();
        write!(f, "{body}.{}", Cursor::tag(&body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::mcp::tool::Progress;
    use crate::registry::NetworkRegistry;

    #[test]
    fn a_cursor_reads_back_and_rejects_what_it_did_not_make() {
        let cursor = Cursor {
            instance: 7,
            version: 42,
            call: u64::MAX,
            offset: 100,
            group: None,
        };
        let text = cursor.to_string();
        assert_eq!(Cursor::parse(&text, "cursor").unwrap(), cursor);
        let members = Cursor {
            group: Some(3),
            ..Cursor::parse(&text, "cursor").unwrap()
        };
        assert_eq!(
            Cursor::parse(&members.to_string(), "cursor").unwrap(),
            members
        );
        assert!(members.to_string().starts_with("m2."));
        let body = cursor.body();
        for bad in [
            "",
            "100",
            "c1.7.2a",
            "c1.7.2a.ff.64",
            "c2.7.2a.ff.64",
            "c2.x.2a.ff.64",
            &format!("{body}.0000000000000000"),
            &text.replace("c2.7.", "c2.07."),
            &text.replace(".64.", ".65."),
            &text.to_uppercase(),
            &format!("{text}.1"),
        ] {
            assert_eq!(
                Cursor::parse(bad, "cursor").unwrap_err().code(),
                "invalid_value",
                "{bad}"
            );
        }
    }

    #[test]
    fn a_cursor_goes_stale_when_the_network_changes_and_is_bound_to_its_call() {
        let registry = NetworkRegistry::new();
        let limits = Limits::default();
        let ctx = ToolContext::new(&registry, &limits, &Progress::NONE);
        let mut net = Network::named("plan");
        net.add_node("a").unwrap();
        let first = Page::open(&ctx, &net, "t", ("a", 1), None, 1, 10).unwrap();
        let next = first.next(true).unwrap();
        let second = Page::open(&ctx, &net, "t", ("a", 1), Some(&next), 1, 10).unwrap();
        assert_eq!(second.offset, 1);
        let other = Page::open(&ctx, &net, "t", ("b", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(other.code(), "invalid_value");
        net.add_node("b").unwrap();
        let stale = Page::open(&ctx, &net, "t", ("a", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(stale.code(), "cursor_stale");
        let again = Network::named("plan");
        let stale = Page::open(&ctx, &again, "t", ("a", 1), Some(&next), 1, 10).unwrap_err();
        assert_eq!(
            stale.code(),
            "cursor_stale",
            "a new network under the same name"
        );
    }

    #[test]
    fn a_members_cursor_pages_one_group_and_is_refused_as_the_other_kind() {
        let registry = NetworkRegistry::new();
        let limits = Limits::default();
        let ctx = ToolContext::new(&registry, &limits, &Progress::NONE);
        let mut net = Network::named("plan");
        net.add_node("a").unwrap();
        let list = Page::open(&ctx, &net, "t", 1, None, 5, 10).unwrap();
        let members = list.members_cursor(3, 20);
        let page = Page::members(&ctx, &net, "t", 1, &members, 7, 10, "per_group").unwrap();
        assert_eq!((page.group(), page.offset, page.end()), (Some(3), 20, 27));
        // The next members page stays on the same group.
        let next = page.next(true).unwrap();
        let again = Page::members(&ctx, &net, "t", 1, &next, 7, 10, "per_group").unwrap();
        assert_eq!((again.group(), again.offset), (Some(3), 27));
        assert!(
            again
                .more(7, Some(40), &Some(next.clone()))
                .unwrap()
                .contains("raise per_group")
        );
        // Each kind passed as the other is refused, and so is another call's.
        let wrong = Page::open(&ctx, &net, "t", 1, Some(&members), 5, 10).unwrap_err();
        assert!(wrong.to_string().contains("members_page"), "{wrong}");
        let list_cursor = list.next(true).unwrap();
        let wrong =
            Page::members(&ctx, &net, "t", 1, &list_cursor, 7, 10, "per_group").unwrap_err();
        assert_eq!(wrong.code(), "invalid_value");
        let other = Page::members(&ctx, &net, "t", 2, &members, 7, 10, "per_group").unwrap_err();
        assert_eq!(other.code(), "invalid_value");
        net.add_node("b").unwrap();
        let stale = Page::members(&ctx, &net, "t", 1, &members, 7, 10, "per_group").unwrap_err();
        assert_eq!(stale.code(), "cursor_stale");
    }

    #[test]
    fn a_page_stops_at_its_byte_budget_and_continues_there() {
        let registry = NetworkRegistry::new();
        let limits = Limits {
            max_reply_bytes: crate::limits::REPLY_ENVELOPE_BYTES + 100,
            ..Limits::default()
        };
        let ctx = ToolContext::new(&registry, &limits, &Progress::NONE);
        let net = Network::named("plan");
        let page = Page::open(&ctx, &net, "t", (), None, 100, 100).unwrap();
        // Each "xxxxxxxx" costs 2 × 10 + 2 escaped quotes = 22 bytes: 4 fit in 100.
        let items = page.fill(std::iter::repeat_n("xxxxxxxx", 10));
        assert_eq!(items.len(), 4);
        assert!(page.stopped.get());
        let next = page.next(false).unwrap();
        let second = Page::open(&ctx, &net, "t", (), Some(&next), 100, 100).unwrap();
        assert_eq!(second.offset, 4);
        // One item larger than the budget alone is cut, and ends the page.
        let cut = second.fill_cut([vec![1u8; 1000], vec![2]], |mut v, bytes| {
            v.truncate(bytes / 4);
            v
        });
        assert_eq!(cut.len(), 1);
        assert_eq!(cut[0].len(), 25);
        assert_eq!(second.next(false).map(|_| ()), Some(()));
    }
}
