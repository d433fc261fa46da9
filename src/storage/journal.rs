//! The write-ahead journal's record format and its scanner.
//!
//! A record is a 16-byte header then the payload:
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic `NMJ1` |
//! | 4..8 | payload length, u32 little-endian |
//! | 8..12 | CRC-32 of the payload |
//! | 12..16 | CRC-32 of bytes 0..12 (so a damaged length is detected, not trusted) |
//! | 16.. | payload: JSON `{"tool": …, "arguments": {…}}` |

/// Record magic.
pub const MAGIC: &[u8; 4] = b"NMJ1";
/// Header length in bytes.
pub const HEADER: usize = 16;
/// The largest payload accepted when reading (a guard against a damaged length).
pub const MAX_PAYLOAD: usize = 1 << 30;

/// Encodes one record.
pub fn encode(payload: &[u8]) -> Vec<u8> {
    let mut record = Vec::with_capacity(HEADER + payload.len());
    record.extend_from_slice(MAGIC);
    record.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    record.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    let header_crc = crc32fast::hash(&record[..12]);
    record.extend_from_slice(&header_crc.to_le_bytes());
    record.extend_from_slice(payload);
    record
}

/// What a scan of a journal found.
#[derive(Debug, PartialEq)]
pub struct Scan<'a> {
    /// The payloads of the good records, in order.
    pub records: Vec<&'a [u8]>,
    /// The length of the good prefix: where the next record goes.
    pub good_len: usize,
    /// Whether an incomplete or damaged last record (a crash mid-write) was dropped.
    pub torn_tail: bool,
}

/// Damage in the middle of the journal: never skipped.
#[derive(Debug, PartialEq)]
pub struct Corruption {
    /// Byte offset of the damaged record.
    pub offset: usize,
    /// What is wrong.
    pub reason: String,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// Whether `bytes` is only zero fill (or empty).
fn zero_fill(bytes: &[u8]) -> bool {
    bytes.iter().all(|b| *b == 0)
}

/// Reads every record. A damaged record that is the last thing in the file (an
/// incomplete header, a payload running past the end, a bad payload checksum on the
/// final record, or zero fill) is a torn tail; damage followed by more data is
/// corruption.
pub fn scan(bytes: &[u8]) -> Result<Scan<'_>, Corruption> {
    let mut records = Vec::new();
    let mut at = 0;
    let torn = |at: usize, records| {
        Ok(Scan {
            records,
            good_len: at,
            torn_tail: true,
        })
    };
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.iter().all(|b| *b == 0) || rest.len() < HEADER {
            return torn(at, records);
        }
        let header_ok = &rest[..4] == MAGIC && crc32fast::hash(&rest[..12]) == u32_at(rest, 12);
        if !header_ok {
            // A header cut short by a crash, the rest of the file zero-filled.
            if zero_fill(&rest[HEADER..]) {
                return torn(at, records);
            }
            return Err(Corruption {
                offset: at,
                reason: "record header is damaged (bad magic or header checksum)".into(),
            });
        }
        let len = u32_at(rest, 4) as usize;
        if len > MAX_PAYLOAD {
            return Err(Corruption {
                offset: at,
                reason: format!("record claims {len} bytes"),
            });
        }
        if rest.len() < HEADER + len {
            return torn(at, records);
        }
        let payload = &rest[HEADER..HEADER + len];
        if crc32fast::hash(payload) != u32_at(rest, 8) {
            // The last record, cut short: nothing follows it, or only the zero fill
            // a file system leaves when a crash interrupts an append.
            if zero_fill(&rest[HEADER + len..]) {
                return torn(at, records);
            }
            return Err(Corruption {
                offset: at,
                reason: "record payload checksum does not match".into(),
            });
        }
        records.push(payload);
        at += HEADER + len;
    }
    Ok(Scan {
        records,
        good_len: at,
        torn_tail: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal(payloads: &[&[u8]]) -> Vec<u8> {
        payloads.iter().flat_map(|p| encode(p)).collect()
    }

    #[test]
    fn round_trip() {
        let bytes = journal(&[b"one", b"two", b""]);
        let scan = scan(&bytes).unwrap();
        assert_eq!(scan.records, vec![&b"one"[..], b"two", b""]);
        assert!(!scan.torn_tail);
        assert_eq!(scan.good_len, bytes.len());
    }

    #[test]
    fn every_truncation_is_a_torn_tail_keeping_the_complete_records() {
        let bytes = journal(&[b"first record", b"second record"]);
        let first_len = HEADER + 12;
        for cut in 0..bytes.len() {
            let scan = scan(&bytes[..cut]).unwrap();
            let expected = usize::from(cut >= first_len);
            assert_eq!(scan.records.len(), expected, "cut at {cut}");
            assert_eq!(scan.torn_tail, cut != 0 && cut != first_len);
        }
    }

    #[test]
    fn zero_fill_and_bad_last_payload_are_torn_tails() {
        let mut bytes = journal(&[b"a", b"bb"]);
        bytes.extend_from_slice(&[0; 40]);
        assert!(scan(&bytes).unwrap().torn_tail);
        let mut bytes = journal(&[b"a", b"bb"]);
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let s = scan(&bytes).unwrap();
        assert!(s.torn_tail);
        assert_eq!(s.records, vec![&b"a"[..]]);
    }

    /// Group commit can have two records in flight at a power cut: the file then
    /// holds a valid header, a payload cut short, and zeros to its end.
    #[test]
    fn a_cut_payload_or_header_followed_by_zero_fill_is_a_torn_tail() {
        let good = journal(&[b"first", b"second record"]);
        let first = HEADER + 5;
        for keep in [first + HEADER + 3, first + 6, first + 1] {
            let mut bytes = good[..keep].to_vec();
            bytes.resize(good.len() + 4096, 0);
            let s = scan(&bytes).unwrap_or_else(|c| panic!("keep {keep}: {c:?}"));
            assert!(s.torn_tail, "keep {keep}");
            assert_eq!(s.records, vec![&b"first"[..]]);
            assert_eq!(s.good_len, first);
        }
        // Damage followed by anything but zeros is still corruption.
        let mut bytes = good[..first + HEADER + 3].to_vec();
        bytes.resize(good.len() + 64, 0);
        bytes.push(1);
        assert_eq!(scan(&bytes).unwrap_err().offset, first);
    }

    #[test]
    fn damage_in_the_middle_is_corruption_with_its_offset() {
        let good = journal(&[b"a", b"bb", b"ccc"]);
        let second = HEADER + 1;
        let mut bad_len = good.clone();
        bad_len[second + 4] ^= 0x40; // the length prefix of the second record
        assert_eq!(scan(&bad_len).unwrap_err().offset, second);
        let mut bad_payload = good.clone();
        bad_payload[second + HEADER] ^= 1;
        assert_eq!(scan(&bad_payload).unwrap_err().offset, second);
    }
}
