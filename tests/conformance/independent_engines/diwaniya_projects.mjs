// Projects (PROJ.*): what a player may declare, and baloot when achieved.
// Readings played: A1 natural, A17 hundred_only, A18 exclusive, A21 no_project,
// A22 hundred.
import { rankOf, suitOf } from "./diwaniya_cards.mjs";
import {
  FOUR_OF_A_KIND,
  MAX_PROJECTS_PER_PLAYER,
  NATURAL_HIGH_TO_LOW,
  NATURAL_STRENGTH,
  RANKS,
  SEQUENCE_KIND,
  SUITS,
} from "./diwaniya_tables.mjs";

export const declaredBy = (s, seat) =>
  s.declarations.filter((p) => p.seat === seat && p.kind !== "baloot");

const freeCards = (s, seat) => {
  const taken = new Set(declaredBy(s, seat).flatMap((p) => p.cards));
  return s.hands[seat].filter((c) => !taken.has(c));
};

// Maximal runs of three or more cards of one suit in natural order, suit by
// suit, each from its highest card down.
const suitRuns = (cards, suit) => {
  const held = new Set(cards.filter((c) => suitOf(c) === suit).map((c) => NATURAL_STRENGTH[rankOf(c)]));
  const runFrom = (top) => {
    const run = [];
    for (let k = top; held.has(k); k -= 1) run.push(NATURAL_HIGH_TO_LOW[7 - k] + suit);
    return run;
  };
  return [...Array(8).keys()]
    .filter((top) => held.has(top) && !held.has(top + 1))
    .map(runFrom)
    .filter((run) => run.length >= 3);
};

const sequenceProject = (seat, run) => ({
  seat,
  kind: SEQUENCE_KIND[Math.min(run.length, 5)], // A17 hundred_only
  cards: run,
});

// The bug `sub_runs` also offers the top three cards of a longer run as a sira.
const runProjects = (s, seat, run) =>
  s.rules.bugs.has("sub_runs") && run.length > 3
    ? [sequenceProject(seat, run), sequenceProject(seat, run.slice(0, 3))]
    : [sequenceProject(seat, run)];

export const projectCandidates = (s, seat) => {
  const cards = freeCards(s, seat);
  const mode = s.contract.kind;
  const runs = SUITS.flatMap((suit) => suitRuns(cards, suit)).flatMap((run) => runProjects(s, seat, run));
  const fours = RANKS.filter(
    (rank) => FOUR_OF_A_KIND[mode][rank] && SUITS.every((suit) => cards.includes(rank + suit)),
  ).map((rank) => ({ seat, kind: FOUR_OF_A_KIND[mode][rank], cards: SUITS.map((suit) => rank + suit) }));
  return [...runs, ...fours];
};

export const mayDeclare = (s, seat) =>
  s.tricks.length === 0 &&
  !s.trick.some((p) => p.seat === seat) &&
  declaredBy(s, seat).length < MAX_PROJECTS_PER_PLAYER;

export const declarationText = (p) => ["declare", p.kind, ...p.cards].join(" ");

export const declarationActions = (s, seat) =>
  mayDeclare(s, seat) ? projectCandidates(s, seat).map(declarationText) : [];

// The candidate a `declare KIND CARD...` names (its cards in any order), or null.
export const matchDeclaration = (s, seat, action) => {
  const [, kind, ...cards] = action.split(" ");
  const same = (p) =>
    p.kind === kind && p.cards.length === cards.length && cards.every((c) => p.cards.includes(c));
  return mayDeclare(s, seat) ? (projectCandidates(s, seat).find(same) ?? null) : null;
};

const playedBy = (s, seat, card) =>
  [...s.tricks.flatMap((t) => t.plays), ...s.trick].some((p) => p.seat === seat && p.card === card);

// PROJ.7: at the second of the hokum king and queen played by one player.
export const noteBaloot = (s, seat, card) => {
  const trump = s.contract.trump;
  if (trump == null || suitOf(card) !== trump || !["K", "Q"].includes(rankOf(card))) return s;
  const cards = ["K" + trump, "Q" + trump];
  const other = rankOf(card) === "K" ? cards[1] : cards[0];
  if (!playedBy(s, seat, other)) return s;
  const inProject = declaredBy(s, seat).some((p) => p.cards.some((c) => cards.includes(c)));
  if (inProject) return s; // A18 exclusive
  return { ...s, declarations: [...s.declarations, { seat, kind: "baloot", cards }] };
};
