//! A progress bar on stderr for long runs: it appears once a run has lasted a second, and only
//! when stderr is a terminal; otherwise nothing is drawn.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Steps between two looks at the clock.
const STRIDE: usize = 64;

/// The delay before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Progress of a run of `total` steps.
pub struct Progress {
    total: usize,
    enabled: bool,
    start: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A progress tracker; `wanted` and stderr being a terminal enable the bar.
    pub fn new(total: usize, wanted: bool) -> Progress {
        Progress {
            total,
            enabled: wanted && std::io::stderr().is_terminal(),
            start: Instant::now(),
            bar: None,
        }
    }

    /// Step `n` is done.
    pub fn tick(&mut self, n: usize) {
        if !self.enabled || !n.is_multiple_of(STRIDE) {
            return;
        }
        match &self.bar {
            Some(bar) => bar.set_position(n as u64),
            None if self.start.elapsed() >= DELAY => {
                let bar = ProgressBar::new(self.total as u64);
                if let Ok(style) = ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} steps, eta {eta}",
                ) {
                    bar.set_style(style.progress_chars("=> "));
                }
                bar.set_position(n as u64);
                self.bar = Some(bar);
            }
            None => {}
        }
    }

    /// Removes the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
