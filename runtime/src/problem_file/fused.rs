//! The fused tapes of a problem file (`sparkgen_sym::Tape::fuse`), built once per group of
//! trait methods and shared by every stepper on the file: an ensemble builds its steppers' fused
//! evaluations from the first member's.

use sparkgen_sym::Tape;
use std::sync::{Arc, Mutex, PoisonError};

/// A group of trait methods: each part's method (its index in the kind's enum) with the
/// positions of its arguments, and the number of argument slices the group reads.
pub(crate) type Group = (Vec<(usize, Vec<usize>)>, usize);

/// The fused tapes built so far, by group. A cache, not part of the file's value: two files
/// with the same tapes are equal whatever each has built, and a clone starts with the fused
/// tapes of the original.
#[derive(Default)]
pub(crate) struct FusedTapes(Mutex<Vec<(Group, Arc<Tape>)>>);

impl FusedTapes {
    /// The fused tape of `group`, built by `build` the first time it is asked for.
    pub(crate) fn get_or_build(&self, group: Group, build: impl FnOnce() -> Tape) -> Arc<Tape> {
        let mut built = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, tape)) = built.iter().find(|(g, _)| *g == group) {
            return Arc::clone(tape);
        }
        let tape = Arc::new(build());
        built.push((group, Arc::clone(&tape)));
        tape
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }
}

impl Clone for FusedTapes {
    fn clone(&self) -> Self {
        let built = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        FusedTapes(Mutex::new(built.clone()))
    }
}

impl PartialEq for FusedTapes {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for FusedTapes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FusedTapes({} built)", self.len())
    }
}
