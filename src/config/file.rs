//! The config file (docs/config.md "The file"): TOML with the table's keys
//! at the top level, every key optional. It stays the user's: `config set`
//! edits it in place with `toml_edit` (comments, blank lines, key order and
//! the other values' spelling kept byte for byte), and writes it atomically
//! (a temporary file in the same directory, mode 0600, renamed over it;
//! through a symlink, the target is replaced).
//!
//! A file, or a directory holding it, that others (group or world) can
//! write is a risk ([`ConfigFile::write_risk`]): resolution refuses the
//! guarded keys from it (API key and URLs), as ssh refuses such a config.

use std::io::Write;
use std::path::{Path, PathBuf};

use toml_edit::{Document, DocumentMut, Item, Value};

use super::{ConfigKey, Invalid};
use crate::core::trust::{self, Distrust};
use crate::error::{Error, Reason, Result};

/// The config file as read: its text, where each key is, and whether
/// others could change it. A file that does not exist reads as empty.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    path: PathBuf,
    exists: bool,
    doc: DocumentMut,
    /// The 1-based line of each key present.
    lines: Vec<(ConfigKey, usize)>,
    /// File or directory that others can write, with its mode.
    risks: Vec<Risk>,
    /// Others can read the file.
    readable: bool,
}

/// A path another user could change: the file, or a directory above it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Risk {
    path: PathBuf,
    why: Distrust,
    is_dir: bool,
}

impl std::fmt::Display for Risk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = self.path.display();
        match (self.why, self.is_dir) {
            (Distrust::Writable { mode }, false) => {
                write!(f, "others can write to it (mode {mode:04o})")
            }
            (Distrust::Writable { mode }, true) => {
                write!(f, "others can write to its directory {p} (mode {mode:04o})")
            }
            (Distrust::Owner { uid }, false) => {
                write!(f, "it is owned by another user (uid {uid})")
            }
            (Distrust::Owner { uid }, true) => {
                write!(f, "its directory {p} is owned by another user (uid {uid})")
            }
        }
    }
}

impl Risk {
    /// What the user can do about it.
    fn fix(&self) -> String {
        match self.why {
            Distrust::Writable { .. } => format!("run `chmod go-w {}`", self.path.display()),
            Distrust::Owner { .. } => format!(
                "keep your settings in a file you own, under directories only you or root own (PUBMED_CONFIG=PATH); {} is not yours",
                self.path.display()
            ),
        }
    }
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

fn blank(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.trim().is_empty())
}

/// What `config set` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The key now has the value.
    Set,
    /// The value was empty: the key was removed.
    Unset,
}

impl ConfigFile {
    /// Reads the file at `path`; one that does not exist is empty. Errors
    /// (`invalid_argument`, exit 2) name the file and the line: TOML syntax,
    /// an unknown key, a value of the wrong type. An API key is never
    /// quoted in them.
    pub fn load(path: &Path) -> Result<ConfigFile> {
        let bytes = match std::fs::read(path) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(Error::new(
                    Reason::InvalidArgument,
                    format!("cannot read config file {}: {e}", path.display()),
                ));
            }
        };
        let exists = bytes.is_some();
        let text = String::from_utf8(bytes.unwrap_or_default()).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = line_of(&String::from_utf8_lossy(&e.into_bytes()[..at]), at);
            Self::error(path, line, "not valid UTF-8")
        })?;
        let parsed = Document::parse(text.clone()).map_err(|e| {
            let line = e.span().map_or(1, |s| line_of(&text, s.start));
            // The parser's message may quote the value; never echo a key.
            let on_key_line = text
                .lines()
                .nth(line - 1)
                .is_some_and(|l| l.trim_start().starts_with("api_key"));
            let why = if on_key_line {
                format!("api_key takes {}", super::Kind::ApiKey.expected())
            } else {
                e.message().trim().replace('\n', "; ")
            };
            Self::error(path, line, &why)
        })?;
        let mut lines = Vec::new();
        for (name, item) in parsed.as_table().iter() {
            let line = parsed
                .as_table()
                .key(name)
                .and_then(|k| k.span())
                .map_or(1, |s| line_of(&text, s.start));
            let Some(key) = ConfigKey::from_file_key(name) else {
                return Err(Self::error(path, line, &format!("unknown key {name:?}")));
            };
            let kind = key.knob().kind;
            let checked = match item.as_value() {
                Some(v) if blank(v) => Ok(()),
                Some(v) => kind.check(v),
                None => Err(Invalid {
                    expected: kind.expected(),
                    got: None,
                }),
            };
            checked.map_err(|why| Self::error(path, line, &why.describe(name)))?;
            lines.push((key, line));
        }
        let (risks, readable) = if exists {
            access(path)
        } else {
            (Vec::new(), false)
        };
        Ok(ConfigFile {
            path: path.to_path_buf(),
            exists,
            doc: parsed.into_mut(),
            lines,
            risks,
            readable,
        })
    }

    fn error(path: &Path, line: usize, why: &str) -> Error {
        Error::new(
            Reason::InvalidArgument,
            format!("config file {} line {line}: {why}", path.display()),
        )
        .with_hint(format!(
            "fix that line, or see `pubmed config show`; keys: {}",
            ConfigKey::list()
        ))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file existed when read.
    pub fn exists(&self) -> bool {
        self.exists
    }

    /// The value of `key` and its 1-based line, unless absent or empty.
    pub fn value(&self, key: ConfigKey) -> Option<(&Value, usize)> {
        let v = self.doc.get(key.name())?.as_value().filter(|v| !blank(v))?;
        let line = self
            .lines
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(1, |(_, l)| *l);
        Some((v, line))
    }

    /// Why others could change this file: it, or its directory, is group-
    /// or world-writable (e.g. "others can write to it (mode 0664)");
    /// `None` when only its owner can.
    pub fn write_risk(&self) -> Option<String> {
        self.risks.first().map(|r| r.to_string())
    }

    /// What to do about the first risk: `chmod go-w PATH`, or (another
    /// user's path) use a file of one's own.
    pub fn risk_fix(&self) -> Option<String> {
        self.risks.first().map(Risk::fix)
    }

    /// The path of the first risk.
    pub fn risky_path(&self) -> Option<&Path> {
        self.risks.first().map(|r| r.path.as_path())
    }

    /// Whether others can read the file.
    pub fn readable_by_others(&self) -> bool {
        self.readable
    }

    /// Sets `key` to `text` (parsed for its type; empty removes the key),
    /// keeping every other byte of the file: a changed value keeps its
    /// spacing and trailing comment, a new key goes after the last one, and
    /// the comments above a removed key stay. Errors (`invalid_argument`):
    /// a value of the wrong type; a guarded key (API key, URLs) in a
    /// directory that others can write.
    pub fn set(&mut self, key: ConfigKey, text: &str) -> Result<Change> {
        let knob = key.knob();
        let text = text.trim();
        if text.is_empty() {
            self.remove(key);
            return Ok(Change::Unset);
        }
        let new = knob
            .kind
            .encode(text)
            .map_err(|why| Error::new(Reason::InvalidArgument, why.describe(knob.name)))?;
        if knob.guarded
            && let Some(risk) = self.risks.iter().find(|r| r.is_dir)
        {
            return Err(Error::new(
                Reason::InvalidArgument,
                format!(
                    "refusing to write {} to config file {}: {risk}",
                    knob.name,
                    self.path.display()
                ),
            )
            .with_hint(risk.fix()));
        }
        let table = self.doc.as_table_mut();
        match table.get_mut(knob.name).and_then(Item::as_value_mut) {
            Some(old) => {
                let decor = old.decor().clone();
                *old = new;
                *old.decor_mut() = decor;
            }
            None => {
                table.insert(knob.name, Item::Value(new));
            }
        }
        Ok(Change::Set)
    }

    /// `key`'s value as the file holds it, in TOML (`false`, `250`,
    /// `"a@b.c"`): what `config set` echoes, so the echo is the typed value
    /// written (`off` is stored as `false`), never the text typed. An API
    /// key is masked (`"****abcd"`). `None` when the key is not set.
    pub fn stored(&self, key: ConfigKey) -> Option<String> {
        let knob = key.knob();
        let value = self.doc.as_table().get(knob.name)?.as_value()?;
        if knob.kind == super::Kind::ApiKey {
            return value
                .as_str()
                .map(|k| format!("{:?}", super::mask(k.trim())));
        }
        let mut value = value.clone();
        value.decor_mut().clear();
        Some(value.to_string())
    }

    /// Removes `key`; the comments and blank lines above it move to the
    /// next key (or the end of the file).
    fn remove(&mut self, key: ConfigKey) {
        let table = self.doc.as_table_mut();
        let names: Vec<String> = table.iter().map(|(k, _)| k.to_string()).collect();
        let Some(at) = names.iter().position(|n| n == key.name()) else {
            return;
        };
        let Some((removed, _)) = table.remove_entry(key.name()) else {
            return;
        };
        let above = removed
            .leaf_decor()
            .prefix()
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string();
        if above.is_empty() {
            return;
        }
        match names.get(at + 1).and_then(|n| table.key_mut(n)) {
            Some(mut next) => {
                let decor = next.leaf_decor_mut();
                let own = decor.prefix().and_then(|p| p.as_str()).unwrap_or("");
                let joined = format!("{above}{own}");
                decor.set_prefix(joined);
            }
            None => {
                let trailing = self.doc.trailing().as_str().unwrap_or("").to_string();
                self.doc.set_trailing(format!("{above}{trailing}"));
            }
        }
    }

    /// The file's text as [`save`](Self::save) writes it.
    pub fn text(&self) -> String {
        self.doc.to_string()
    }

    /// Writes the file atomically: a temporary file with mode 0600 in the
    /// same directory (created 0700 if missing), synced, then renamed over
    /// the file; a symlink's target is the file replaced. Errors:
    /// `invalid_argument` naming the path.
    pub fn save(&self) -> Result<()> {
        let target = std::fs::canonicalize(&self.path)
            .ok()
            .filter(|_| self.exists)
            .unwrap_or_else(|| self.path.clone());
        let io_err = |e: std::io::Error| {
            Error::new(
                Reason::InvalidArgument,
                format!("cannot write config file {}: {e}", target.display()),
            )
        };
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(io_err)?;
        let mut tmp = tempfile::Builder::new();
        tmp.prefix(".config.toml.").suffix(".tmp");
        #[cfg(unix)]
        tmp.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600));
        let mut tmp = tmp.tempfile_in(dir).map_err(io_err)?;
        tmp.write_all(self.text().as_bytes()).map_err(io_err)?;
        tmp.as_file().sync_all().map_err(io_err)?;
        tmp.persist(&target).map_err(|e| io_err(e.error))?;
        Ok(())
    }
}

/// Who else may touch the file at `path` (ssh's rule, [`trust::judge`]):
/// the file, and every directory above it up to `/` (above the link and
/// above its target), that another user owns or that group or others can
/// write; and whether others can read the file.
#[cfg(unix)]
fn access(path: &Path) -> (Vec<Risk>, bool) {
    let me = trust::me();
    let facts = |p: &Path| std::fs::metadata(p).ok().map(|m| trust::Facts::of(&m));
    let mut risks = Vec::new();
    let file = facts(path);
    if let Some(why) = file.and_then(|f| trust::judge(f, me)) {
        risks.push(Risk {
            path: path.to_path_buf(),
            why,
            is_dir: false,
        });
    }
    let parent = |p: &Path| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut starts = vec![parent(path)];
    if let Ok(real) = std::fs::canonicalize(path) {
        starts.push(parent(&real));
    }
    // Each directory once, by its real path; the nearest keeps the
    // spelling the user gave.
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut dirs: Vec<PathBuf> = Vec::new();
    for start in starts {
        let real = std::fs::canonicalize(&start).unwrap_or_else(|_| start.clone());
        let mut chain = vec![(start, real.clone())];
        chain.extend(
            real.ancestors()
                .skip(1)
                .map(|a| (a.to_path_buf(), a.to_path_buf())),
        );
        for (shown, real) in chain {
            if !seen.contains(&real) {
                seen.push(real);
                dirs.push(shown);
            }
        }
    }
    for dir in dirs {
        if let Some(why) = facts(&dir).and_then(|f| trust::judge(f, me)) {
            risks.push(Risk {
                path: dir,
                why,
                is_dir: true,
            });
        }
    }
    (risks, file.is_some_and(|f| f.mode & 0o044 != 0))
}

#[cfg(not(unix))]
fn access(_path: &Path) -> (Vec<Risk>, bool) {
    (Vec::new(), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, text: &str) -> PathBuf {
        let path = dir.join("config.toml");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn broken_files_name_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "email = \"a@b.c\"\n\nmax_retries = \"lots\"\n");
        let e = ConfigFile::load(&path).unwrap_err();
        assert_eq!(e.reason, Reason::InvalidArgument);
        assert_eq!(
            e.message,
            format!(
                "config file {} line 3: max_retries takes a whole number, not \"lots\"",
                path.display()
            )
        );
        let absent = ConfigFile::load(&dir.path().join("absent.toml")).unwrap();
        assert!(!absent.exists());
        assert!(absent.value(ConfigKey::Email).is_none());
        write(
            dir.path(),
            "email = \"a@b.c\"\napi_key = 98765432109876543\n",
        );
        let e = ConfigFile::load(&path).unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "config file {} line 2: api_key takes an NCBI API key (letters and digits only)",
                path.display()
            )
        );
        write(
            dir.path(),
            "email = \"a@b.c\"\napi_key = \"98765432109876543\n",
        );
        let e = ConfigFile::load(&path).unwrap_err();
        assert!(!e.message.contains("98765432109876543"), "{}", e.message);
        assert!(e.message.contains(" line 2: "), "{}", e.message);
        write(dir.path(), "\n[colour]\nx = 1\n");
        let e = ConfigFile::load(&path).unwrap_err();
        assert!(
            e.message.ends_with("line 2: unknown key \"colour\""),
            "{}",
            e.message
        );
        std::fs::write(&path, b"email = \"a\"\ntool = \"\xff\"\n").unwrap();
        let e = ConfigFile::load(&path).unwrap_err();
        assert!(
            e.message.ends_with("line 2: not valid UTF-8"),
            "{}",
            e.message
        );
    }

    const LAYOUT: &str = "\
# pubmed settings, kept by hand
email    = 'me@example.org'   # work address

# slow down for the shared proxy
request_gap_ms = 1_000
deadline_s=30.0
";

    #[test]
    fn set_keeps_comments_and_layout_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), LAYOUT);
        let mut f = ConfigFile::load(&path).unwrap();
        assert_eq!(f.set(ConfigKey::RequestGapMs, "250").unwrap(), Change::Set);
        f.save().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            LAYOUT.replace("1_000", "250")
        );
        let mut f = ConfigFile::load(&path).unwrap();
        f.set(ConfigKey::ApiKey, "0123456789abcdef").unwrap();
        f.set(ConfigKey::SharedBudget, "off").unwrap();
        f.set(ConfigKey::Email, "other@example.org").unwrap();
        f.save().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "\
# pubmed settings, kept by hand
email    = \"other@example.org\"   # work address

# slow down for the shared proxy
request_gap_ms = 250
deadline_s=30.0
api_key = \"0123456789abcdef\"
shared_budget = false
"
        );
        // Unsetting the first key keeps the header comment above it.
        let mut f = ConfigFile::load(&path).unwrap();
        assert_eq!(f.set(ConfigKey::Email, "").unwrap(), Change::Unset);
        assert_eq!(f.set(ConfigKey::RequestGapMs, " ").unwrap(), Change::Unset);
        f.set(ConfigKey::Tool, "").unwrap();
        f.save().unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "\
# pubmed settings, kept by hand

# slow down for the shared proxy
deadline_s=30.0
api_key = \"0123456789abcdef\"
shared_budget = false
"
        );
    }

    #[test]
    fn values_are_checked_before_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "email = \"a@b.c\"\n");
        let mut f = ConfigFile::load(&path).unwrap();
        for (key, bad, msg) in [
            (
                ConfigKey::MaxRetries,
                "x",
                "max_retries takes a whole number, not \"x\"",
            ),
            (
                ConfigKey::DeadlineS,
                "0",
                "deadline_s takes a number of seconds above 0 and at most 86400, not \"0\"",
            ),
            (
                ConfigKey::ApiKey,
                "abc def",
                "api_key takes an NCBI API key (letters and digits only)",
            ),
            (
                ConfigKey::EutilsUrl,
                "ftp://x/",
                "eutils_url takes an http(s) URL, not \"ftp://x/\"",
            ),
            (
                ConfigKey::SharedBudget,
                "maybe",
                "shared_budget takes true or false (also on/off, yes/no, 1/0), not \"maybe\"",
            ),
        ] {
            let e = f.set(key, bad).unwrap_err();
            assert_eq!(e.message, msg);
        }
        assert_eq!(f.text(), "email = \"a@b.c\"\n");
    }

    #[cfg(unix)]
    #[test]
    fn written_files_are_private_and_symlinks_stay() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        let mut f = ConfigFile::load(&path).unwrap();
        f.set(ConfigKey::Email, "me@example.org").unwrap();
        f.save().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&dir.path().join("sub")), 0o700);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "email = \"me@example.org\"\n"
        );
        // A config kept in a dotfiles repository and linked in place.
        let real = dir.path().join("dotfiles.toml");
        std::fs::write(&real, "tool = \"x\"\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = dir.path().join("link.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let mut f = ConfigFile::load(&link).unwrap();
        assert!(f.readable_by_others());
        f.set(ConfigKey::MaxRetries, "3").unwrap();
        f.save().unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(&real).unwrap(),
            "tool = \"x\"\nmax_retries = 3\n"
        );
        assert_eq!(mode(&real), 0o600);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn others_writing_is_a_risk_named_with_its_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "email = \"a@b.c\"\n");
        let chmod = |p: &Path, m: u32| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap()
        };
        chmod(&path, 0o600);
        let f = ConfigFile::load(&path).unwrap();
        assert_eq!(f.write_risk(), None);
        assert!(!f.readable_by_others());
        chmod(&path, 0o664);
        let f = ConfigFile::load(&path).unwrap();
        assert_eq!(
            f.write_risk().as_deref(),
            Some("others can write to it (mode 0664)")
        );
        assert_eq!(f.risky_path(), Some(path.as_path()));
        chmod(&path, 0o600);
        chmod(dir.path(), 0o777);
        let mut f = ConfigFile::load(&path).unwrap();
        let risk = format!(
            "others can write to its directory {} (mode 0777)",
            dir.path().display()
        );
        assert_eq!(f.write_risk(), Some(risk.clone()));
        let e = f.set(ConfigKey::ApiKey, "0123456789abcdef").unwrap_err();
        assert_eq!(
            e.message,
            format!(
                "refusing to write api_key to config file {}: {risk}",
                path.display()
            )
        );
        assert_eq!(f.set(ConfigKey::MaxRetries, "2").unwrap(), Change::Set);
        chmod(dir.path(), 0o700);
    }
}
