//! Once the tree is full, search iterations must not allocate: Tron play-outs are fast
//! enough that an allocation per iteration would show. The counting allocator counts
//! only on the thread that asks it to: the test harness's own threads allocate when
//! they like (a machine under load once showed one such allocation mid-search).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use mctsbot::game::{Outcome, Player};
use mctsbot::search::simultaneous::{SimConfig, SimPolicy, SimSearch};
use mctsbot::search::{random_below, Evaluator, FastRng, Limits, SimGame, TreePolicy};
use rand::SeedableRng;

// The settings Lanctot et al. (2013) tuned for Tron (Table 4).
const DUCT: SimPolicy = SimPolicy::DecoupledUct { c: 1.5 };
const DUCB1T: SimPolicy = SimPolicy::DecoupledUcb1Tuned { c: 1.0 };
const EXP3: SimPolicy = SimPolicy::Exp3 { gamma: 0.3 };
const RM: SimPolicy = SimPolicy::RegretMatching { gamma: 0.3 };
/// A node budget no test reaches unless it asks for a smaller one.
const MAX_NODES: usize = 300_000;

struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (a `const` initialiser: reading it
    /// allocates nothing).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTED.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Eight steps of three moves each; player 0 wins if its moves add up to more.
#[derive(Clone, Copy, PartialEq, Default)]
struct Race {
    step: u8,
    lead: i8,
}

impl SimGame for Race {
    type Move = u8;
    type Moves = std::ops::Range<u8>;

    fn outcome(&self) -> Option<Outcome> {
        (self.step == 8).then_some(match self.lead.signum() {
            1 => Outcome::Win(0),
            -1 => Outcome::Win(1),
            _ => Outcome::Draw,
        })
    }

    fn legal_moves(&self, _player: Player) -> std::ops::Range<u8> {
        0..3
    }

    fn play_joint(&mut self, mv0: u8, mv1: u8) {
        self.step += 1;
        self.lead += mv0 as i8 - mv1 as i8;
    }
}

/// Random moves to the end of the race.
struct RandomRace;

impl TreePolicy<Race> for RandomRace {}

impl Evaluator<Race> for RandomRace {
    fn evaluate(&mut self, race: &mut Race, rng: &mut FastRng) -> f32 {
        while race.outcome().is_none() {
            race.play_joint(random_below(rng, 3) as u8, random_below(rng, 3) as u8);
        }
        race.outcome().unwrap().reward_for(0)
    }
}

#[test]
fn full_tree_iterations_do_not_allocate() {
    for policy in [DUCT, DUCB1T, EXP3, RM] {
        let config = SimConfig {
            max_nodes: 200,
            ..SimConfig::new(policy, MAX_NODES)
        };
        let mut search = SimSearch::new(
            Race::default(),
            config,
            RandomRace,
            FastRng::seed_from_u64(1),
        );
        let warm_up = search.search(Limits::iterations(2_000));
        assert!(warm_up.tree_full, "{policy:?}");
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        COUNTED.with(|counted| counted.set(true));
        let stats = search.search(Limits::iterations(20_000));
        COUNTED.with(|counted| counted.set(false));
        let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
        assert_eq!(stats.iterations, 20_000);
        assert_eq!(allocations, 0, "{policy:?}");
    }
}
