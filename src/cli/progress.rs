//! The one progress bar of long runs (`search --all`, `convert --input`):
//! on stderr, only on a terminal and without `-q`/`--no-progress`; whole
//! numbers with thousands separators (`12,345/30,000`) and a whole rate
//! (`1,234/s`).

use indicatif::{HumanFloatCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// What a bar counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// `search --all`: ranges done/planned (the message) and PMIDs.
    Pmids,
    /// `convert`: input lines, out of `Some(total)` when the file was counted.
    Ids(Option<u64>),
}

/// A progress bar, or nothing when progress is off.
pub struct Progress(Option<ProgressBar>);

/// `1,235/s`: items per second, rounded, with thousands separators.
fn rate(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let _ = write!(w, "{:.0}/s", HumanFloatCount(state.per_sec()));
}

fn style(counting: Counting) -> ProgressStyle {
    let template = match counting {
        Counting::Pmids => {
            "{spinner} ranges {msg}  PMIDs {human_pos}/{human_len}  {rate}  ETA {eta}"
        }
        Counting::Ids(Some(_)) => "{spinner} {human_pos}/{human_len} IDs  {rate}  ETA {eta}",
        Counting::Ids(None) => "{spinner} {human_pos} IDs  {rate}",
    };
    ProgressStyle::with_template(template)
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .with_key("rate", rate)
}

impl Progress {
    /// A bar on stderr when `shown`, else a no-op.
    pub fn new(shown: bool, counting: Counting) -> Progress {
        Progress::drawn_to(shown.then(ProgressDrawTarget::stderr), counting)
    }

    fn drawn_to(target: Option<ProgressDrawTarget>, counting: Counting) -> Progress {
        Progress(target.map(|t| {
            let len = match counting {
                Counting::Ids(Some(n)) => n,
                _ => 0,
            };
            let pb = ProgressBar::with_draw_target(Some(len), t);
            pb.set_style(style(counting));
            pb
        }))
    }

    /// One more item done.
    pub fn inc(&self) {
        if let Some(pb) = &self.0 {
            pb.inc(1);
        }
    }

    /// `pos` of `len` done, with a message (`search --all`: `ranges 3/5`).
    pub fn set(&self, pos: u64, len: u64, msg: String) {
        if let Some(pb) = &self.0 {
            pb.set_length(len);
            pb.set_position(pos);
            pb.set_message(msg);
        }
    }

    /// Removes the bar from the terminal (done, failed or interrupted).
    pub fn clear(&self) {
        if let Some(pb) = &self.0 {
            pb.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A terminal that keeps the last line drawn.
    #[derive(Debug, Clone, Default)]
    struct Screen(Arc<Mutex<String>>);

    impl indicatif::TermLike for Screen {
        fn width(&self) -> u16 {
            120
        }
        fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
            Ok(())
        }
        fn write_line(&self, s: &str) -> std::io::Result<()> {
            self.write_str(s)
        }
        fn write_str(&self, s: &str) -> std::io::Result<()> {
            if !s.trim().is_empty() {
                *self.0.lock().unwrap() = s.to_string();
            }
            Ok(())
        }
        fn clear_line(&self) -> std::io::Result<()> {
            Ok(())
        }
        fn flush(&self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn shown(counting: Counting, f: impl FnOnce(&Progress)) -> String {
        let screen = Screen::default();
        let target = ProgressDrawTarget::term_like(Box::new(screen.clone()));
        let p = Progress::drawn_to(Some(target), counting);
        f(&p);
        if let Some(pb) = &p.0 {
            pb.force_draw();
        }
        screen.0.lock().unwrap().clone()
    }

    #[test]
    fn counts_have_thousands_separators_and_rates_no_decimals() {
        let line = shown(Counting::Pmids, |p| p.set(12_345, 30_000, "3/5".into()));
        assert!(line.contains("ranges 3/5  PMIDs 12,345/30,000  "), "{line}");
        let rate = line.split("  ").find(|w| w.ends_with("/s")).unwrap();
        assert!(
            rate.trim_end_matches("/s")
                .chars()
                .all(|c| c.is_ascii_digit() || c == ','),
            "a whole rate: {line}"
        );
        let line = shown(Counting::Ids(Some(1_000_000)), |p| {
            for _ in 0..1_234 {
                p.inc();
            }
        });
        assert!(line.contains("1,234/1,000,000 IDs"), "{line}");
    }
}
