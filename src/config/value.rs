//! The typed value of each knob: how it is read from text (a flag, an
//! environment variable, `pubmed config set`) and from the TOML file, how it
//! is written back to TOML and how `pubmed config show` prints it. One
//! parser per type, so every layer accepts and refuses the same values
//! (docs/config.md "Values").

use std::time::Duration;

use toml_edit::Value;

use super::Kind;

/// Why a value was refused: what the knob takes, and the value as it may be
/// shown (`None` for an API key, which is never echoed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// What the knob takes, e.g. "a whole number of milliseconds".
    pub expected: &'static str,
    /// The refused value, quoted; `None` when it must not be shown.
    pub got: Option<String>,
}

impl Invalid {
    fn text(kind: Kind, got: &str) -> Self {
        Invalid {
            expected: kind.expected(),
            got: (kind != Kind::ApiKey).then(|| shown(kind, format!("{got:?}"))),
        }
    }

    fn toml(kind: Kind, got: &Value) -> Self {
        Invalid {
            expected: kind.expected(),
            got: (kind != Kind::ApiKey).then(|| shown(kind, got.to_string().trim().to_string())),
        }
    }

    /// The message for a value refused under `label` (a flag, a variable or
    /// a config key): "`label` takes …, not …".
    pub fn describe(&self, label: &str) -> String {
        match &self.got {
            Some(got) => format!("{label} takes {}, not {got}", self.expected),
            None => format!("{label} takes {}", self.expected),
        }
    }
}

/// A refused value as it may be echoed: a URL that failed to parse keeps
/// no password or `api_key=` value (core/secret.rs).
fn shown(kind: Kind, quoted: String) -> String {
    match kind {
        Kind::Url => crate::core::secret::redact_url(&quoted),
        _ => quoted,
    }
}

/// A knob's value type. `parse` gets trimmed, non-empty text (an empty
/// value means "not set" and never reaches it).
pub trait KnobValue: Sized + Clone {
    /// The table's name for this type.
    const KIND: Kind;
    /// Reads a flag's, a variable's or `config set`'s text.
    fn parse(text: &str) -> Result<Self, Invalid>;
    /// Reads the value of a config-file key.
    fn from_toml(v: &Value) -> Result<Self, Invalid>;
    /// The value as written to the config file.
    fn to_toml(&self) -> Value;
    /// The value as `pubmed config show` prints it (an API key masked).
    fn show(&self) -> String;
}

/// The longest duration a knob takes: one day.
const MAX: Duration = Duration::from_secs(86_400);

impl KnobValue for String {
    const KIND: Kind = Kind::Text;
    fn parse(text: &str) -> Result<Self, Invalid> {
        Ok(text.to_string())
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_str()
            .map(|s| s.trim().to_string())
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        Value::from(self.as_str())
    }
    fn show(&self) -> String {
        self.clone()
    }
}

/// An NCBI API key: ASCII letters and digits. Its `Debug` form is masked, so
/// it cannot leak through a log line or a panic message.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// The key as sent in the `api_key` parameter.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ApiKey({})", mask(&self.0))
    }
}

impl KnobValue for ApiKey {
    const KIND: Kind = Kind::ApiKey;
    fn parse(text: &str) -> Result<Self, Invalid> {
        if text.chars().all(|c| c.is_ascii_alphanumeric()) {
            Ok(ApiKey(text.to_string()))
        } else {
            Err(Invalid::text(Self::KIND, text))
        }
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_str()
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
            .and_then(|s| Self::parse(s.trim()))
    }
    fn to_toml(&self) -> Value {
        Value::from(self.0.as_str())
    }
    fn show(&self) -> String {
        mask(&self.0)
    }
}

/// An `http` or `https` URL with a host, kept as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpUrl(String);

impl HttpUrl {
    /// The URL as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl KnobValue for HttpUrl {
    const KIND: Kind = Kind::Url;
    fn parse(text: &str) -> Result<Self, Invalid> {
        match url::Url::parse(text) {
            Ok(u) if matches!(u.scheme(), "http" | "https") && u.host().is_some() => {
                Ok(HttpUrl(text.to_string()))
            }
            _ => Err(Invalid::text(Self::KIND, text)),
        }
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_str()
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
            .and_then(|s| Self::parse(s.trim()))
            .map_err(|_| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        Value::from(self.0.as_str())
    }
    fn show(&self) -> String {
        crate::core::secret::redact_url(&self.0)
    }
}

/// A duration written as whole milliseconds, at most one day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Millis(pub Duration);

impl Millis {
    fn from_ms(ms: u64) -> Option<Self> {
        Some(Millis(Duration::from_millis(ms))).filter(|m| m.0 <= MAX)
    }
}

impl KnobValue for Millis {
    const KIND: Kind = Kind::Millis;
    fn parse(text: &str) -> Result<Self, Invalid> {
        text.parse()
            .ok()
            .and_then(Millis::from_ms)
            .ok_or_else(|| Invalid::text(Self::KIND, text))
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .and_then(Millis::from_ms)
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        // At most 86,400,000: always fits TOML's i64.
        Value::from(i64::try_from(self.0.as_millis()).unwrap_or(i64::MAX))
    }
    fn show(&self) -> String {
        self.0.as_millis().to_string()
    }
}

/// A duration written as seconds (fractions allowed), above 0 and at most
/// one day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seconds(Duration);

impl Seconds {
    /// Checks `s`: above 0 and at most 86,400 seconds (NaN and infinities
    /// refused).
    pub fn from_secs_f64(s: f64) -> Result<Self, Invalid> {
        Duration::try_from_secs_f64(s)
            .ok()
            .filter(|d| !d.is_zero() && *d <= MAX)
            .map(Seconds)
            .ok_or_else(|| Invalid {
                expected: Kind::Seconds.expected(),
                got: Some(s.to_string()),
            })
    }

    /// The duration.
    pub fn get(self) -> Duration {
        self.0
    }
}

impl From<Duration> for Seconds {
    /// A built-in default; not range-checked.
    fn from(d: Duration) -> Self {
        Seconds(d)
    }
}

impl KnobValue for Seconds {
    const KIND: Kind = Kind::Seconds;
    fn parse(text: &str) -> Result<Self, Invalid> {
        text.parse::<f64>()
            .ok()
            .and_then(|s| Seconds::from_secs_f64(s).ok())
            .ok_or_else(|| Invalid::text(Self::KIND, text))
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_float()
            .or_else(|| v.as_integer().map(|n| n as f64))
            .and_then(|s| Seconds::from_secs_f64(s).ok())
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        let s = self.0.as_secs_f64();
        if self.0.subsec_nanos() == 0 {
            Value::from(self.0.as_secs() as i64)
        } else {
            Value::from(s)
        }
    }
    fn show(&self) -> String {
        self.0.as_secs_f64().to_string()
    }
}

impl KnobValue for u32 {
    const KIND: Kind = Kind::Count;
    fn parse(text: &str) -> Result<Self, Invalid> {
        text.parse().map_err(|_| Invalid::text(Self::KIND, text))
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_integer()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        Value::from(i64::from(*self))
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl KnobValue for bool {
    const KIND: Kind = Kind::Switch;
    fn parse(text: &str) -> Result<Self, Invalid> {
        match text.to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" | "1" => Ok(true),
            "false" | "off" | "no" | "0" => Ok(false),
            _ => Err(Invalid::text(Self::KIND, text)),
        }
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_bool().ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        Value::from(*self)
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

impl KnobValue for crate::cache::CacheMode {
    const KIND: Kind = Kind::CacheMode;
    fn parse(text: &str) -> Result<Self, Invalid> {
        <Self as crate::core::choice::Choice>::parse(text)
            .ok_or_else(|| Invalid::text(Self::KIND, text))
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_str()
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
            .and_then(|s| <Self as KnobValue>::parse(s.trim()))
    }
    fn to_toml(&self) -> Value {
        Value::from(self.as_str())
    }
    fn show(&self) -> String {
        self.as_str().to_string()
    }
}

/// A size in bytes: a whole number above 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bytes(pub u64);

impl KnobValue for Bytes {
    const KIND: Kind = Kind::Bytes;
    fn parse(text: &str) -> Result<Self, Invalid> {
        match text.parse::<u64>() {
            Ok(n) if n > 0 => Ok(Bytes(n)),
            _ => Err(Invalid::text(Self::KIND, text)),
        }
    }
    fn from_toml(v: &Value) -> Result<Self, Invalid> {
        v.as_integer()
            .filter(|n| *n > 0)
            .map(|n| Bytes(n as u64))
            .ok_or_else(|| Invalid::toml(Self::KIND, v))
    }
    fn to_toml(&self) -> Value {
        // TOML integers are i64: a larger bound is written as the largest.
        Value::from(i64::try_from(self.0).unwrap_or(i64::MAX))
    }
    fn show(&self) -> String {
        self.0.to_string()
    }
}

/// Shows an API key without revealing it: `****` and its last four
/// characters, or `****` alone for a key under 12 characters.
pub fn mask(key: &str) -> String {
    let n = key.chars().count();
    if n < 12 {
        "****".to_string()
    } else {
        let tail: String = key.chars().skip(n - 4).collect();
        format!("****{tail}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_reads_text_and_toml_alike() {
        assert_eq!(Millis::parse("0").unwrap().0, Duration::ZERO);
        assert_eq!(
            Millis::parse("86400000").unwrap().0,
            Duration::from_secs(86_400)
        );
        assert!(Millis::parse("86400001").is_err());
        assert!(Millis::parse("18446744073709551615").is_err());
        assert!(Millis::parse("-1").is_err());
        assert!(Millis::parse("1.5").is_err());
        assert_eq!(u32::parse("4294967295"), Ok(u32::MAX));
        assert!(u32::parse("4294967296").is_err());
        assert_eq!(
            Seconds::parse("2.5").unwrap().get(),
            Duration::from_millis(2500)
        );
        for bad in ["0", "-1", "1e19", "1e999", "NaN", "inf", "86400.5"] {
            assert!(Seconds::parse(bad).is_err(), "{bad}");
        }
        for (text, want) in [("on", true), ("OFF", false), ("Yes", true), ("0", false)] {
            assert_eq!(bool::parse(text), Ok(want), "{text}");
        }
        let secs: Value = "2.5".parse().unwrap();
        assert_eq!(
            Seconds::from_toml(&secs).unwrap().get(),
            Duration::from_millis(2500)
        );
        let whole: Value = "60".parse().unwrap();
        let s = Seconds::from_toml(&whole).unwrap();
        assert_eq!(s.to_toml().to_string(), "60");
        assert_eq!(s.show(), "60");
        assert_eq!(Seconds::parse("2.5").unwrap().to_toml().to_string(), "2.5");
        let quoted: Value = "\"5\"".parse().unwrap();
        let e = u32::from_toml(&quoted).unwrap_err();
        assert_eq!(
            e.describe("max_retries"),
            "max_retries takes a whole number, not \"5\""
        );
    }

    #[test]
    fn cache_modes_and_byte_counts() {
        use crate::cache::CacheMode;
        use crate::core::choice::Choice;
        assert_eq!(<CacheMode as KnobValue>::parse("READ"), Ok(CacheMode::Read));
        let e = <CacheMode as KnobValue>::parse("sometimes").unwrap_err();
        assert_eq!(
            e.describe("PUBMED_CACHE"),
            "PUBMED_CACHE takes a cache mode (on, searches, read, refresh, off), not \"sometimes\""
        );
        // The message lists every mode there is.
        assert!(Kind::CacheMode.expected().contains(&CacheMode::names()));
        let off: Value = "\"off\"".parse().unwrap();
        assert_eq!(CacheMode::from_toml(&off), Ok(CacheMode::Off));
        assert_eq!(Bytes::parse("100000"), Ok(Bytes(100_000)));
        for bad in ["0", "-1", "1.5", "lots", "18446744073709551616"] {
            assert!(Bytes::parse(bad).is_err(), "{bad}");
        }
        for bad in ["0", "-5", "\"100\"", "1.5"] {
            let v: Value = bad.parse().unwrap();
            assert!(Bytes::from_toml(&v).is_err(), "{bad}");
        }
        let v: Value = "2048".parse().unwrap();
        assert_eq!(Bytes::from_toml(&v), Ok(Bytes(2048)));
        assert_eq!(Bytes(2048).to_toml().to_string(), "2048");
    }

    #[test]
    fn api_keys_are_never_echoed() {
        let e = ApiKey::parse("abc def").unwrap_err();
        assert_eq!(
            e.describe("NCBI_API_KEY"),
            "NCBI_API_KEY takes an NCBI API key (letters and digits only)"
        );
        let k = ApiKey::parse("0123456789abcdef").unwrap();
        assert_eq!(format!("{k:?}"), "ApiKey(****cdef)");
        assert_eq!(k.show(), "****cdef");
        let v: Value = "98765432109876543".parse().unwrap();
        assert_eq!(ApiKey::from_toml(&v).unwrap_err().got, None);
        assert_eq!(mask("short"), "****");
    }

    /// Issue 25 item 14: a URL setting that failed to parse was echoed
    /// whole, `api_key=` and password included.
    #[test]
    fn a_refused_url_is_echoed_without_its_secrets() {
        let e = HttpUrl::parse("ftp://me:hunter2@h/?api_key=SECRET1").unwrap_err();
        assert_eq!(
            e.describe("PUBMED_EUTILS_URL"),
            "PUBMED_EUTILS_URL takes an http(s) URL, not \"ftp://me:REDACTED@h/?api_key=REDACTED\""
        );
        let v: Value = "\"http://me:hunter2@bad host/?api_key=SECRET1\""
            .parse()
            .unwrap();
        assert_eq!(
            HttpUrl::from_toml(&v).unwrap_err().got.as_deref(),
            Some("\"http://me:REDACTED@bad host/?api_key=REDACTED\"")
        );
        let ok = HttpUrl::parse("https://me:hunter2@h/e/?api_key=SECRET1").unwrap();
        assert_eq!(ok.show(), "https://me:REDACTED@h/e/?api_key=REDACTED");
        assert_eq!(ok.as_str(), "https://me:hunter2@h/e/?api_key=SECRET1");
    }

    #[test]
    fn urls_must_be_http_with_a_host() {
        for bad in [
            "not a url",
            "ftp://host/x/",
            "file:///tmp/x",
            "http://",
            "localhost:8080",
        ] {
            assert!(HttpUrl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            HttpUrl::parse("http://127.0.0.1:9/eutils/")
                .unwrap()
                .as_str(),
            "http://127.0.0.1:9/eutils/"
        );
    }
}
