// Lookup tables of the diwaniya engine: cards, ranks, values, projects,
// profiles and what the engine declares in its handshake. Plain data only.

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
export const FULL_DECK = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));

// Strength within a suit: higher wins a trick (SETUP.6, SETUP.7).
export const TRUMP_STRENGTH = { J: 7, 9: 6, A: 5, 10: 4, K: 3, Q: 2, 8: 1, 7: 0 };
export const PLAIN_STRENGTH = { A: 7, 10: 6, K: 5, Q: 4, J: 3, 9: 2, 8: 1, 7: 0 };
// The natural order that makes cards "in sequence" (PROJ.3-5, A1 natural).
export const NATURAL_STRENGTH = { A: 7, K: 6, Q: 5, J: 4, 10: 3, 9: 2, 8: 1, 7: 0 };
export const NATURAL_HIGH_TO_LOW = ["A", "K", "Q", "J", "10", "9", "8", "7"];

// Bunts per card (SCORE.3, SCORE.4).
export const PLAIN_VALUE = { A: 11, 10: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
export const TRUMP_VALUE = { J: 20, 9: 14, A: 11, 10: 10, K: 4, Q: 3, 8: 0, 7: 0 };

// Project values per contract kind (SCORE.5, SCORE.6).
export const PROJECT_VALUE = {
  sun: { sira: 4, fifty: 10, hundred: 20, four_hundred: 40, baloot: 0 },
  hokum: { sira: 2, fifty: 5, hundred: 10, four_hundred: 20, baloot: 2 },
};
export const SEQUENCE_KIND = { 3: "sira", 4: "fifty", 5: "hundred" };
// Four of a kind (PROJ.5, PROJ.6; A21 no_project, A22 hundred).
export const FOUR_OF_A_KIND = {
  sun: { 10: "hundred", J: "hundred", Q: "hundred", K: "hundred", A: "four_hundred" },
  hokum: { 10: "hundred", J: "hundred", Q: "hundred", K: "hundred", A: "hundred" },
};
export const MAX_PROJECTS_PER_PLAYER = 2;

export const CONSTANTS = {
  lastTrickBonus: 10,
  successMargin: { sun: 13, hokum: 8 },
  failurePoints: { sun: 26, hokum: 16 },
  kaboot: { sun: 44, hokum: 25, ace: 88, flat: 44 },
  sunRaiseGate: 100,
  tricksPerRound: 8,
  firstDeal: 5,
};

// Raise levels in order; the engine implements the double and the triple only.
export const RAISE_LADDER = [
  { level: "none", multiplier: 1, call: "double" },
  { level: "doubled", multiplier: 2, call: "triple" },
  { level: "tripled", multiplier: 3, call: null },
];

// The two profiles of the variant register, variant -> reading.
const LITERAL = {
  sequence_order: "natural",
  sun_overcall: "last_caller_wins",
  hokum_answer: "all_others",
  bidder_success: "margin_points",
  rounding: "each_team",
  project_units: "bunts_before_rounding",
  scoring_projects: "all_declared",
  projects_on_failure: "maximum_only",
  kaboot: "flat_44",
  locked_round: "double_and_four",
  sun_raises: "gate_strict_all",
  multipliers: "points_only",
  gahwa: "round_decides_game",
  ashkal: "third_fourth_any_session",
  void_in_hokum: "any_card",
  first_leader: "bid_winner",
  long_sequence: "hundred_only",
  baloot_overlap: "exclusive",
  both_reach_target: "higher_total_wins",
  redeal_dealer: "same_dealer",
  low_four_of_a_kind: "no_project",
  aces_in_hokum: "hundred",
};
export const PROFILES = {
  literal: LITERAL,
  federation: {
    ...LITERAL,
    bidder_success: "more_than_half_bunts",
    rounding: "bidder_takes_rest",
    project_units: "points_after_rounding",
    scoring_projects: "best_team_only",
    projects_on_failure: "maximum_and_all_projects",
    kaboot: "sun_44_hokum_25",
    locked_round: "doubler_chooses",
    sun_raises: "gate_strict_double_only",
    void_in_hokum: "must_trump",
    first_leader: "dealer_right",
  },
};

// What the engine plays and can play: the literal profile with five readings
// of its own, and a choice of two roundings.
export const DECLARED = {
  profile: "literal",
  overrides: {
    rounding: "bidder_takes_rest",
    bidder_success: "half_points_or_more",
    void_in_hokum: "must_trump_unless_partner_wins",
    kaboot: "sun_44_hokum_25",
    locked_round: "any_raise",
  },
  readings: { rounding: ["each_team", "bidder_takes_rest"] },
  capabilities: ["raises", "raise_triple", "declarations", "projects", "second_session"],
};

// Every reading the engine can play, per variant.
export const IMPLEMENTED = Object.fromEntries(
  Object.keys(LITERAL).map((variant) => [
    variant,
    DECLARED.readings[variant] ?? [DECLARED.overrides[variant] ?? LITERAL[variant]],
  ]),
);
