//! Control characters escaped in text logs: one event is one line, whatever its
//! fields hold.

use std::io::{self, Write};

use tracing_subscriber::fmt::MakeWriter;

/// Wraps a [`MakeWriter`] so that every event it writes is escaped by [`escape`].
pub(crate) struct Escaping<M>(pub(crate) M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Escaping<M> {
    type Writer = EscapingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        EscapingWriter(self.0.make_writer())
    }
}

/// A writer that escapes what it is given; the formatter hands it one whole event
/// (ending in its newline) per write.
pub(crate) struct EscapingWriter<W>(W);

impl<W: Write> Write for EscapingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(escape(buf).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// `bytes` as text with every control character (C0, DEL, C1) and the Unicode line
/// and paragraph separators written as `\n`, `\r` or `\u{..}`, except a final
/// newline and tabs. Invalid UTF-8 becomes U+FFFD.
pub(crate) fn escape(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let (body, newline) = match text.strip_suffix('\n') {
        Some(body) => (body, "\n"),
        None => (&*text, ""),
    };
    let mut out = String::with_capacity(text.len() + 8);
    for c in body.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push('\t'),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push_str(newline);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_with_newlines_stays_on_one_line() {
        let line =
            escape(b"WARN call failed node_id=a\nINFO forged line\r\x1b[31mred\xe2\x80\xa8\n");
        assert_eq!(
            line,
            "WARN call failed node_id=a\\nINFO forged line\\r\\u{1b}[31mred\\u{2028}\n"
        );
        assert_eq!(line.matches('\n').count(), 1);
        assert_eq!(escape(b"plain\ttext\n"), "plain\ttext\n");
        assert_eq!(escape(b"\xff\n"), "\u{fffd}\n");
    }
}
