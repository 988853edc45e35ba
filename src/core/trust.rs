//! Whom a file on a shared machine may come from (docs/config.md
//! "Permissions", docs/client.md "Shared budget"): pure rules over a path's
//! owner and mode bits, the facts read by the caller (`stat`).
//!
//! Two rules:
//! - [`judge`], ssh's rule for a config file and every directory above it:
//!   owned by this user or root, and not writable by group or others. A
//!   sticky directory owned by this user or root (`/tmp`, mode 1777) is
//!   fine: others may add entries to it but not rename or replace ours.
//! - [`judge_private`], for state only this user may shape (the shared
//!   request budget): owned by this user and writable by nobody else,
//!   sticky or not (anyone may create the file first in a sticky `/tmp`).

/// What `stat` says about one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Facts {
    /// Owner's user ID (`st_uid`).
    pub uid: u32,
    /// Permission bits (`st_mode & 0o7777`).
    pub mode: u32,
    /// A directory.
    pub is_dir: bool,
}

/// Why a path is not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distrust {
    /// Owned by another user (neither this user nor root).
    Owner {
        /// The owner's user ID.
        uid: u32,
    },
    /// Group or others can write to it.
    Writable {
        /// Its permission bits.
        mode: u32,
    },
}

impl std::fmt::Display for Distrust {
    /// "owned by another user (uid 1234)" / "writable by others (mode 0664)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Distrust::Owner { uid } => write!(f, "owned by another user (uid {uid})"),
            Distrust::Writable { mode } => write!(f, "writable by others (mode {mode:04o})"),
        }
    }
}

impl Facts {
    /// The facts of `stat`'s answer.
    #[cfg(unix)]
    pub fn of(meta: &std::fs::Metadata) -> Facts {
        use std::os::unix::fs::MetadataExt;
        Facts {
            uid: meta.uid(),
            mode: meta.mode() & 0o7777,
            is_dir: meta.is_dir(),
        }
    }
}

/// This process's effective user ID (`geteuid`): the user whose files
/// are trusted.
#[cfg(unix)]
pub fn me() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail (POSIX).
    unsafe { libc::geteuid() }
}

/// Group- or world-writable.
const OTHERS_WRITE: u32 = 0o022;
/// The sticky bit: in such a directory only an entry's owner (or the
/// directory's) may rename or remove it.
const STICKY: u32 = 0o1000;

/// ssh's rule for a config file or a directory above it, for the user
/// `me` (effective user ID): `None` when trusted.
pub fn judge(f: Facts, me: u32) -> Option<Distrust> {
    let owner_ok = f.uid == me || f.uid == 0;
    if !owner_ok {
        return Some(Distrust::Owner { uid: f.uid });
    }
    let shielded = f.is_dir && f.mode & STICKY != 0;
    (f.mode & OTHERS_WRITE != 0 && !shielded).then_some(Distrust::Writable { mode: f.mode })
}

/// The rule for private state (the budget file and its directory): owned
/// by `me` itself and writable by no one else; `None` when trusted.
pub fn judge_private(f: Facts, me: u32) -> Option<Distrust> {
    if f.uid != me {
        return Some(Distrust::Owner { uid: f.uid });
    }
    (f.mode & OTHERS_WRITE != 0).then_some(Distrust::Writable { mode: f.mode })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: u32 = 1000;

    fn file(uid: u32, mode: u32) -> Facts {
        Facts {
            uid,
            mode,
            is_dir: false,
        }
    }

    fn dir(uid: u32, mode: u32) -> Facts {
        Facts {
            uid,
            mode,
            is_dir: true,
        }
    }

    #[test]
    fn ssh_rule_owner_and_write_bits() {
        assert_eq!(judge(file(ME, 0o600), ME), None);
        assert_eq!(judge(file(ME, 0o644), ME), None);
        assert_eq!(judge(file(0, 0o644), ME), None);
        assert_eq!(judge(dir(ME, 0o755), ME), None);
        // the attack of issue 25: another user's file, however private
        assert_eq!(
            judge(file(1001, 0o600), ME),
            Some(Distrust::Owner { uid: 1001 })
        );
        assert_eq!(
            judge(dir(1001, 0o755), ME),
            Some(Distrust::Owner { uid: 1001 })
        );
        assert_eq!(
            judge(file(ME, 0o664), ME),
            Some(Distrust::Writable { mode: 0o664 })
        );
        assert_eq!(
            judge(file(ME, 0o602), ME),
            Some(Distrust::Writable { mode: 0o602 })
        );
        assert_eq!(
            judge(dir(ME, 0o777), ME),
            Some(Distrust::Writable { mode: 0o777 })
        );
        // /tmp: root's sticky directory; a sticky bit on a file means nothing
        assert_eq!(judge(dir(0, 0o1777), ME), None);
        assert_eq!(judge(dir(ME, 0o1777), ME), None);
        assert_eq!(
            judge(dir(1001, 0o1777), ME),
            Some(Distrust::Owner { uid: 1001 })
        );
        assert_eq!(
            judge(file(ME, 0o1666), ME),
            Some(Distrust::Writable { mode: 0o1666 })
        );
        assert_eq!(
            Distrust::Writable { mode: 0o664 }.to_string(),
            "writable by others (mode 0664)"
        );
        assert_eq!(
            Distrust::Owner { uid: 1001 }.to_string(),
            "owned by another user (uid 1001)"
        );
    }

    #[test]
    fn private_state_is_this_users_alone() {
        assert_eq!(judge_private(dir(ME, 0o700), ME), None);
        assert_eq!(judge_private(file(ME, 0o600), ME), None);
        assert_eq!(judge_private(dir(ME, 0o755), ME), None);
        assert_eq!(
            judge_private(file(0, 0o600), ME),
            Some(Distrust::Owner { uid: 0 })
        );
        assert_eq!(
            judge_private(dir(ME, 0o1777), ME),
            Some(Distrust::Writable { mode: 0o1777 })
        );
        assert_eq!(
            judge_private(file(1001, 0o600), ME),
            Some(Distrust::Owner { uid: 1001 })
        );
        // root's own budget is root's
        assert_eq!(judge_private(dir(0, 0o700), 0), None);
    }
}
