//! Secrets in text that may be printed (docs/config.md "Values"): a URL
//! setting is echoed in errors and `pubmed config show`, and one that
//! fails to parse must not carry its API key or password to the screen.
//! Pure text rules, so they hold for strings no URL parser accepts.

/// What a hidden value reads as.
pub const REDACTED: &str = "REDACTED";

/// `text` with the password of a `scheme://user:password@host` authority
/// and the value of every `api_key=` parameter (any case) replaced by
/// [`REDACTED`], whether or not `text` parses as a URL:
/// `ftp://me:hunter2@h/?api_key=K&x=1` → `ftp://me:REDACTED@h/?api_key=REDACTED&x=1`.
pub fn redact_url(text: &str) -> String {
    let mut out = redact_password(text);
    let mut from = 0;
    while let Some(at) = out[from..].to_ascii_lowercase().find("api_key=") {
        let start = from + at + "api_key=".len();
        let len = out[start..]
            .find(|c: char| matches!(c, '&' | '#' | ';' | '"' | '\'') || c.is_whitespace())
            .unwrap_or(out.len() - start);
        if len == 0 {
            from = start;
            continue;
        }
        out.replace_range(start..start + len, REDACTED);
        from = start + REDACTED.len();
    }
    out
}

/// The password of the first `://user:password@` authority hidden.
fn redact_password(text: &str) -> String {
    let Some(scheme_end) = text.find("://") else {
        return text.to_string();
    };
    let auth_start = scheme_end + 3;
    let rest = &text[auth_start..];
    let auth_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..auth_len];
    let Some(at) = authority.rfind('@') else {
        return text.to_string();
    };
    let Some(colon) = authority[..at].find(':') else {
        return text.to_string();
    };
    let mut out = text.to_string();
    out.replace_range(auth_start + colon + 1..auth_start + at, REDACTED);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_and_keys_are_hidden_parsed_or_not() {
        for (raw, shown) in [
            (
                "ftp://me:hunter2@h/?api_key=SECRET1&x=1",
                "ftp://me:REDACTED@h/?api_key=REDACTED&x=1",
            ),
            // not a URL at all (a space in the host)
            (
                "http://me:hunter2@bad host/e?API_KEY=SECRET1",
                "http://me:REDACTED@bad host/e?API_KEY=REDACTED",
            ),
            ("localhost:8080", "localhost:8080"),
            ("http://me@h/", "http://me@h/"),
            (
                "http://h/x?a=1&api_key=K1&api_key=K2#f",
                "http://h/x?a=1&api_key=REDACTED&api_key=REDACTED#f",
            ),
            ("\"http://h/?api_key=K1\"", "\"http://h/?api_key=REDACTED\""),
            ("http://h/?api_key=", "http://h/?api_key="),
            ("http://u:p@w@h/", "http://u:REDACTED@h/"),
        ] {
            assert_eq!(redact_url(raw), shown, "{raw}");
            assert!(!redact_url(raw).contains("hunter2"));
        }
    }
}
