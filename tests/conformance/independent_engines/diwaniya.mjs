#!/usr/bin/env node
// diwaniya: an independent Baloot engine behind the JSON-lines protocol of
// conformance/PROTOCOL.md, written from the rules notes and the rules document.
//
//   node diwaniya.mjs [--bug NAME]...
//
// The game is a plain object; every request goes through a table of pure
// handlers (state, request) -> {state, reply}. `--bug NAME` plants one of the
// rule breaks of BUGS (for checking that the conformance suite catches it).
//
// What the hello declares: the literal profile with five readings overridden,
// either rounding at `start`, and the capabilities raises, raise_triple,
// declarations, projects and second_session. So: no ashkal, no four or gahwa
// (after a triple the play starts), no new deal after all pass twice (the game
// stops in phase `deal` and a `deal` request is refused), and no game score:
// `setup.totals` is the table's score, read only by the sun gate (RAISE.3);
// a result's `totals` are that round's points, and the game never ends.
import { createInterface } from "node:readline";
import { applyBid, applyRaise, biddingActions, raisingActions } from "./diwaniya_bidding.mjs";
import { biddingOrder, suitOf } from "./diwaniya_cards.mjs";
import { applyPlay, playActions, playableCards, toPlay } from "./diwaniya_play.mjs";
import { matchDeclaration } from "./diwaniya_projects.mjs";
import { CONSTANTS, DECLARED, FULL_DECK, IMPLEMENTED, PROFILES } from "./diwaniya_tables.mjs";

export const BUGS = {
  trump_instead_of_follow: "PLAY.2: in hokum a player holding the led suit may trump instead",
  ten_eleven: "SCORE.3: a ten outside the hokum suit is counted as 11 bunts",
  projects_multiplied: "RAISE.1 (A12 points_only): a raise multiplies the projects too",
  no_partner_exemption:
    "PLAY.2 (A15 must_trump_unless_partner_wins): a void player must trump though the partner wins",
  sub_runs: "PROJ.4: a run of four or five is also offered as the sira of its top three cards",
  no_sun_switch: "BID.4: the hokum bidder may not switch to sun when all pass",
};

// ------------------------------------------------------------ the game --

const dealRound = (rules, dealer, deck, totals, lastResult) => ({
  rules,
  phase: "bidding",
  dealer,
  faceUp: deck[20],
  hands: biddingOrder(dealer).reduce((hands, seat, k) => {
    hands[seat] = deck.slice(5 * k, 5 * k + CONSTANTS.firstDeal);
    return hands;
  }, [[], [], [], []]),
  stock: deck.slice(21),
  bids: [],
  contract: null,
  raises: [],
  multiplier: 1,
  level: 0,
  doubler: null,
  locked: false,
  declarations: [],
  trick: [],
  tricks: [],
  trickWinners: [],
  totals,
  nextDealer: (dealer + 1) % 4,
  session: 1,
  stage: "open",
  asking: biddingOrder(dealer),
  hokumBidder: null,
  sunCaller: null,
  leader: (dealer + 1) % 4,
  lastResult,
});

const PHASE_RULES = {
  bidding: {
    legal: biddingActions,
    apply: applyBid,
    refusal: { rule: "bidding_call", clauses: ["BID.2", "BID.4", "BID.5", "BID.8"] },
  },
  raising: {
    legal: raisingActions,
    apply: applyRaise,
    refusal: { rule: "raise_call", clauses: ["RAISE.1", "RAISE.3"] },
  },
  playing: {
    legal: playActions,
    apply: applyPlay,
    refusal: { rule: "legal_play", clauses: ["PLAY.2", "RAISE.2", "PROJ.1"] },
  },
};

const currentPlayer = (s) => {
  if (s.phase === "bidding" || s.phase === "raising") return s.asking[0];
  if (s.phase === "playing") return toPlay(s);
  return null;
};

const legalActions = (s) => (PHASE_RULES[s.phase] ? PHASE_RULES[s.phase].legal(s) : []);

const whyRefused = (s, action) => {
  if (s.phase !== "playing") return `${action} is not a call open to seat ${currentPlayer(s)} now`;
  const seat = toPlay(s);
  if (action.startsWith("declare ")) {
    return "not a project of the player's free cards, or not the player's first turn of the first trick";
  }
  const card = action.split(" ")[1];
  if (!s.hands[seat].includes(card)) return `${card} is not in seat ${seat}'s hand`;
  if (s.trick.length === 0) return "locked round: no leading a hokum card while holding another suit";
  if (s.hands[seat].some((c) => suitOf(c) === suitOf(s.trick[0].card))) return "must follow the led suit";
  return `void in the led suit: must play one of ${playableCards(s, seat).join(" ")}`;
};

// The state after an action, or a refusal; the state is never touched by a refusal.
export const applyAction = (s, action) => {
  const phase = PHASE_RULES[s.phase];
  if (!phase) return { refused: { reason: `no action is expected in phase ${s.phase}` } };
  const isDeclaration = typeof action === "string" && action.startsWith("declare ");
  const legal = isDeclaration
    ? s.phase === "playing" && matchDeclaration(s, toPlay(s), action) !== null
    : legalActions(s).includes(action);
  if (!legal) return { refused: { reason: whyRefused(s, String(action)), ...phase.refusal } };
  return { state: phase.apply(s, action) };
};

const stateView = (s) => ({
  phase: s.phase,
  dealer: s.dealer,
  current_player: currentPlayer(s),
  face_up: s.faceUp,
  hands: s.hands,
  bids: s.bids,
  contract: s.contract,
  raises: s.raises,
  multiplier: s.multiplier,
  locked: s.locked,
  declarations: s.declarations,
  trick: s.trick,
  trick_winners: s.trickWinners,
  totals: s.totals,
});

// ------------------------------------------------------ setup checking --

const checkDeck = (deck) => {
  if (!Array.isArray(deck) || deck.length !== 32) return "deck: expected a list of all 32 cards";
  const unknown = deck.filter((c) => !FULL_DECK.includes(c));
  if (unknown.length > 0) return `deck: not cards: ${unknown.join(", ")}`;
  if (new Set(deck).size !== 32) return "deck: a card appears twice";
  return null;
};

const readingsOf = (setup) => {
  const profile = setup.profile ?? DECLARED.profile;
  if (!PROFILES[profile]) return { error: `setup.profile: unknown profile ${JSON.stringify(profile)}` };
  const overrides = setup.overrides ?? {};
  if (typeof overrides !== "object" || Array.isArray(overrides)) {
    return { error: "setup.overrides: expected an object of variant -> reading" };
  }
  const readings = { ...PROFILES[profile], ...overrides };
  for (const [variant, reading] of Object.entries(readings)) {
    if (!IMPLEMENTED[variant]) return { error: `setup.overrides: unknown variant ${variant}` };
    if (!IMPLEMENTED[variant].includes(reading)) {
      return {
        error:
          `${variant}=${reading} is not implemented (profile ${profile} with the overrides); ` +
          `this engine plays ${variant} as ${IMPLEMENTED[variant].join(" or ")}`,
      };
    }
  }
  return { readings };
};

const checkSetup = (setup) => {
  if (typeof setup !== "object" || setup === null) return { error: "start: expected a setup object" };
  if (![0, 1, 2, 3].includes(setup.dealer)) return { error: "setup.dealer: expected a seat 0-3" };
  const deckError = checkDeck(setup.deck);
  if (deckError) return { error: `setup.${deckError}` };
  const totals = setup.totals ?? [0, 0];
  if (!Array.isArray(totals) || totals.length !== 2 || !totals.every(Number.isInteger)) {
    return { error: "setup.totals: expected two integers, [team 0, team 1]" };
  }
  const { readings, error } = readingsOf(setup);
  return error ? { error } : { readings, totals };
};

// ------------------------------------------------------------ requests --

const needGame = (s) => (s ? null : "no game: send start first");

const HANDLERS = {
  hello: (s) => ({
    state: s,
    reply: { protocol: 1, name: "diwaniya", version: "1.0.0", ...DECLARED },
  }),
  start: (s, req, bugs) => {
    const { readings, totals, error } = checkSetup(req.setup);
    if (error) return { state: s, error };
    const rules = { readings, bugs };
    return { state: dealRound(rules, req.setup.dealer, req.setup.deck, totals, null), reply: {} };
  },
  deal: (s, req) => {
    const missing = needGame(s);
    if (missing) return { state: s, error: missing };
    if (s.phase === "deal") return { state: s, error: "this engine does not deal again after all pass twice (BID.9)" };
    if (s.phase !== "round_over") return { state: s, error: `deal: the round is not over (phase ${s.phase})` };
    const deckError = checkDeck(req.deck);
    if (deckError) return { state: s, error: deckError };
    return { state: dealRound(s.rules, s.nextDealer, req.deck, s.totals, s.lastResult), reply: {} };
  },
  legal: (s) => {
    const missing = needGame(s);
    if (missing) return { state: s, error: missing };
    return { state: s, reply: { player: currentPlayer(s), actions: legalActions(s) } };
  },
  apply: (s, req) => {
    const missing = needGame(s);
    if (missing) return { state: s, error: missing };
    if (typeof req.action !== "string") return { state: s, error: "apply: expected an action string" };
    const { state, refused } = applyAction(s, req.action.trim());
    return refused ? { state: s, reply: { ok: false, refused } } : { state, reply: {} };
  },
  state: (s) => {
    const missing = needGame(s);
    if (missing) return { state: s, error: missing };
    return { state: s, reply: { state: stateView(s) } };
  },
  result: (s) => {
    const missing = needGame(s);
    if (missing) return { state: s, error: missing };
    return { state: s, reply: { result: s.lastResult } };
  },
  bye: (s) => ({ state: s, reply: {}, exit: true }),
};

const handleLine = (s, line, bugs) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch (err) {
    return { state: s, out: { seq: null, ok: false, error: `not JSON: ${err.message}` } };
  }
  if (typeof req !== "object" || req === null || Array.isArray(req)) {
    return { state: s, out: { seq: null, ok: false, error: "expected a JSON object" } };
  }
  const seq = Number.isInteger(req.seq) ? req.seq : null;
  const handler = HANDLERS[req.type];
  if (!handler) return { state: s, out: { seq, ok: false, error: `unknown request type ${JSON.stringify(req.type)}` } };
  const { state, reply, error, exit } = handler(s, req, bugs);
  const out = error ? { seq, ok: false, error } : { seq, ok: true, ...reply };
  return { state, out, exit };
};

const parseBugs = (argv) => {
  const bugs = new Set();
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] !== "--bug") throw new Error(`unknown argument ${argv[i]}; usage: diwaniya.mjs [--bug NAME]...`);
    const name = argv[i + 1];
    if (!BUGS[name]) throw new Error(`--bug: expected one of ${Object.keys(BUGS).join(", ")}, got ${name}`);
    bugs.add(name);
    i += 1;
  }
  return bugs;
};

const main = () => {
  let bugs;
  try {
    bugs = parseBugs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`diwaniya: ${err.message}\n`);
    process.exit(2);
  }
  let game = null;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    let handled;
    try {
      handled = handleLine(game, line, bugs);
    } catch (err) {
      process.stderr.write(`diwaniya: ${err.stack}\n`);
      const seq = /"seq"\s*:\s*(\d+)/.exec(line);
      const out = { seq: seq ? Number(seq[1]) : null, ok: false, error: `internal error: ${err.message}` };
      handled = { state: game, out };
    }
    game = handled.state;
    process.stdout.write(JSON.stringify(handled.out) + "\n");
    if (handled.exit) lines.close();
  });
  lines.on("close", () => process.exit(0));
};

main();
