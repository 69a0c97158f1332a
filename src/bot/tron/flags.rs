//! The Light Riders flags: for each, its name, value, help (the section of `--help`) and
//! what it sets in [`TronConfig`], whose choices and checks are [`super::options`].

use super::options::TronConfig;
use crate::bot::flags::{contempt, final_move, numbers, Flag, Section};

/// The Light Riders flags.
pub const SECTIONS: &[Section<TronConfig>] = &[Section {
    title: "Light Riders search:",
    flags: FLAGS,
}];

const FLAGS: &[Flag<TronConfig>] = &[
    Flag {
        name: "--tron-search",
        value: "mcts|alphabeta",
        needs: "mcts or alphabeta",
        help: &[
            "MCTS with the variant below, or iterative-deepening",
            "alpha-beta with the Voronoi / tree-of-chambers space",
            "evaluation (the options below are MCTS only) [mcts]",
        ],
        set: |c, v| {
            c.search = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-variant",
        value: "NAME",
        needs: "a variant",
        help: &[
            "suct | suct-tuned | duct-max | duct-mix | ducb1t-max |",
            "ducb1t-mix | exp3 | rm: sequential UCT / UCB1-Tuned,",
            "decoupled UCT / UCB1-Tuned with max or mix final move,",
            "Exp3, Regret Matching (Lanctot et al. 2013)",
            "[ducb1t-max, the strongest against outside bots]",
        ],
        set: |c, v| {
            c.variant = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-c",
        value: "X",
        needs: "a number",
        help: &[
            "exploration constant of the UCB variants",
            "[1.5 UCT, 1.0 UCB1-Tuned]",
        ],
        set: |c, v| {
            c.exploration = Some(v.positive()?);
            Ok(())
        },
    },
    Flag {
        name: "--tron-gamma",
        value: "X",
        needs: "a number",
        help: &["exploration rate of Exp3 and Regret Matching [0.3]"],
        set: |c, v| {
            c.gamma = v.positive()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-final",
        value: "max|max-robust|mix|secure",
        needs: "a final-move rule",
        help: &[
            "final move: most visits; most visits and best value,",
            "searching on until both agree; sampled from the visits or",
            "average strategy (decoupled variants only); or the best",
            "mean - 1/sqrt(visits) [the variant's own: mix for the mix",
            "variants, max for the others]",
        ],
        set: |c, v| {
            c.final_move = Some(final_move(v.text)?);
            Ok(())
        },
    },
    Flag {
        name: "--tron-playout",
        value: "random|safe|ngram|lgr|lgrf|ngram-lgr",
        needs: "a policy",
        help: &[
            "play-out policy: uniform, avoiding immediate crashes, or",
            "learned from earlier play-outs (Laschet 2012): the best",
            "2- and 3-gram reward (epsilon-greedy), the last good reply",
            "(LGR-2, then LGR-1), LGR with forgetting, LGR then",
            "N-Grams; the learned ones fall back on safe moves [safe]",
        ],
        set: |c, v| {
            c.playout = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-epsilon",
        value: "E",
        needs: "a probability",
        help: &["N-Gram play-outs: chance of a random safe move [0.3]"],
        set: |c, v| {
            c.epsilon = v.unit()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-ngram-extraction",
        value: "simultaneous|sequential",
        needs: "an extraction",
        help: &[
            "N-Gram sequences: the opponent's move of the round before,",
            "or the moves read as one list, rider 0's before rider 1's",
            "in each round (Laschet 2012's Table 2) [simultaneous]",
        ],
        set: |c, v| {
            c.ngram_extraction = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-selection",
        value: "uct|ulm|pb|lean-lgrf",
        needs: "a selection",
        help: &[
            "tree selection: plain UCT; untried moves by their 2-gram",
            "reward (UCT-ULM, Laschet 2012); Progressive Bias with the",
            "2-gram reward, W = 10 (Laschet 2012); the untried move",
            "that is the last good reply first (lean-LGRF, Omondi et",
            "al.). Needs a UCB variant and play-outs [uct]",
        ],
        set: |c, v| {
            c.selection = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-separation",
        value: "K",
        needs: "steps",
        help: &[
            "every K play-out steps, stop if the riders are separated and",
            "decide by space; 0 = never [0]",
        ],
        set: |c, v| {
            c.separation_check = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-cutoff",
        value: "none|voronoi|chambers|space",
        needs: "an evaluation",
        help: &[
            "end play-outs early by an evaluation (Kang 2012: Voronoi",
            "after 20 steps, Tree of Chambers after 15, win threshold 1;",
            "space: the alpha-beta evaluation on a logistic curve after",
            "--tron-cutoff-steps rounds) [space]",
        ],
        set: |c, v| {
            c.cutoff = v.parse()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-cutoff-steps",
        value: "K",
        needs: "rounds",
        help: &["space cut-off: play-out rounds before the evaluation [0]"],
        set: |c, v| {
            c.space_score.steps = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-eval-scale",
        value: "S",
        needs: "a score",
        help: &[
            "space cut-off: the evaluation score that makes a 73%",
            "reward (1 / (1 + e^-1)) [400]",
        ],
        set: |c, v| {
            c.space_score.scale = v.positive()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-eval-weights",
        value: "FILL,EDGE,TERRITORY,SHARE",
        needs: "numbers",
        help: &[
            "space cut-off: the score's weights of rider 0's leads in",
            "fillable cells, their edges, territory, and fill as a",
            "share of both riders' fill (-1..1) [11,39,0,0]",
        ],
        set: |c, v| {
            c.space_score.weights = numbers("--tron-eval-weights", v.text)?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-contempt",
        value: "X",
        needs: "a number",
        help: &[
            "MCTS: a draw (a head-on crash, separated riders with",
            "equal space) is worth 0.5-X to the bot and 0.5+X to",
            "its opponent (-0.5..0.5) [0.1]",
        ],
        set: |c, v| {
            c.contempt = contempt("--tron-contempt", v.text)?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-early-stop",
        value: "SHARE",
        needs: "a number from 0 to 1",
        help: &[
            "decoupled MCTS: answer before the move's target time once",
            "its move would stand if SHARE of the iterations left all",
            "went to the runner-up; 0 = never [1]",
        ],
        set: |c, v| {
            c.early_stop = v.unit()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-side-by-side",
        value: "SHARE",
        needs: "a number from 0 to 1",
        help: &[
            "search a round whose heads are side by side for SHARE of",
            "the bank (never less than its budget), no early answer;",
            "0 = as any round [0.25]",
        ],
        set: |c, v| {
            c.side_by_side = v.unit()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-pes",
        value: "",
        needs: "",
        help: &[
            "Predictive Expansion Strategy: the search treats separated",
            "positions with a certain winner as finished [off]",
        ],
        set: |c, _| {
            c.predictive_expansion = true;
            Ok(())
        },
    },
    Flag {
        name: "--tron-max-nodes",
        value: "N",
        needs: "nodes",
        help: &[
            "memory bound of the Tron tree in nodes (about 400 bytes",
            "each with the decoupled variants, 130 MB) [300000]",
        ],
        set: |c, v| {
            c.max_nodes = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--tron-expand-visits",
        value: "N",
        needs: "visits",
        help: &["visits a (joint) move needs before its node is created [4]"],
        set: |c, v| {
            c.expand_visits = v.number()?;
            Ok(())
        },
    },
    Flag {
        name: "--no-endgame",
        value: "",
        needs: "",
        help: &["keep using MCTS once the riders are separated"],
        set: |c, _| {
            c.endgame = false;
            Ok(())
        },
    },
];
