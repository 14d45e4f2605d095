// The bidding (BID.*) and the raises (RAISE.*): legal calls and reducers.
// Readings played: A2 last_caller_wins, A3 all_others, A10 any_raise,
// A11 gate_strict_all (the engine has the double and the triple only).
import { biddingOrder, othersInTurn, suitOf, teamOf } from "./diwaniya_cards.mjs";
import { CONSTANTS, RAISE_LADDER, SUITS } from "./diwaniya_tables.mjs";

const tail = (queue) => queue.slice(1);

// ------------------------------------------------------------- bidding --

const BID_CALLS = {
  open: () => ["pass", "hokum", "sun"],
  answering_hokum: () => ["pass", "sun"],
  // The bug `no_sun_switch` forgets that the hokum bidder may switch to sun.
  hokum_choice: (s) => {
    const named = SUITS.filter((x) => x !== suitOf(s.faceUp)).map((x) => `hokum ${x}`);
    const stay = s.session === 1 ? ["hokum"] : named; // BID.8: not the face-up suit
    return s.rules.bugs.has("no_sun_switch") ? stay : [...stay, "sun"];
  },
  sun_overcalls: () => ["pass", "sun"],
};

export const biddingActions = (s) => BID_CALLS[s.stage](s);

const dealRest = (s, taker) => {
  let at = 0;
  const drawn = {};
  for (const seat of biddingOrder(s.dealer)) {
    const count = seat === taker ? 2 : 3;
    drawn[seat] = s.stock.slice(at, at + count);
    at += count;
  }
  const hands = s.hands.map((hand, seat) =>
    seat === taker ? [...hand, s.faceUp, ...drawn[seat]] : [...hand, ...drawn[seat]],
  );
  return { ...s, hands, stock: [] };
};

const sunGateOpen = (s, bidderTeam) =>
  s.totals[bidderTeam] > CONSTANTS.sunRaiseGate &&
  s.totals[1 - bidderTeam] < CONSTANTS.sunRaiseGate;

export const startPlay = (s) => ({
  ...s,
  phase: "playing",
  asking: [],
  leader: s.contract.bidder, // A16 bid_winner (PLAY.1)
  trick: [],
});

const settleContract = (s, kind, trump, bidder) => {
  const contract = { kind, trump, bidder, ashkal: false };
  const dealt = dealRest({ ...s, contract, asking: [], stage: "contract_made" }, bidder);
  const raisesOpen = kind === "hokum" || sunGateOpen(s, teamOf(bidder));
  if (!raisesOpen) return startPlay(dealt);
  return { ...dealt, phase: "raising", asking: [(bidder + 1) % 4, (bidder + 3) % 4] }; // A26 bidder_right
};

const sunBid = (s, seat) => {
  const held = { ...s, sunCaller: seat };
  if (s.session === 2) return settleContract(held, "sun", null, seat);
  return { ...held, stage: "sun_overcalls", asking: othersInTurn(seat) }; // A2 last_caller_wins
};

const hokumBid = (s, seat) => {
  const answerers = s.session === 2 ? tail(s.asking) : othersInTurn(seat); // A3 all_others
  if (answerers.length === 0) return { ...s, hokumBidder: seat, stage: "hokum_choice", asking: [seat] };
  return { ...s, hokumBidder: seat, stage: "answering_hokum", asking: answerers };
};

const passInOpen = (s) => {
  const rest = tail(s.asking);
  if (rest.length > 0) return { ...s, asking: rest };
  if (s.session === 1) return { ...s, session: 2, asking: biddingOrder(s.dealer) };
  // BID.9, A20 same_dealer: the game waits for a new deck.
  return { ...s, phase: "deal", asking: [], stage: "dealt_again", nextDealer: s.dealer };
};

const STAGE_REDUCERS = {
  open: (s, seat, call) =>
    call === "pass" ? passInOpen(s) : call === "hokum" ? hokumBid(s, seat) : sunBid(s, seat),
  answering_hokum: (s, seat, call) => {
    if (call === "sun") return sunBid(s, seat);
    const rest = tail(s.asking);
    return rest.length > 0
      ? { ...s, asking: rest }
      : { ...s, stage: "hokum_choice", asking: [s.hokumBidder] };
  },
  hokum_choice: (s, seat, call) => {
    if (call === "sun") return settleContract(s, "sun", null, seat);
    const trump = s.session === 1 ? suitOf(s.faceUp) : call.split(" ")[1];
    return settleContract(s, "hokum", trump, seat);
  },
  sun_overcalls: (s, seat, call) => {
    const rest = tail(s.asking);
    const after = call === "sun" ? { ...s, asking: rest, sunCaller: seat } : { ...s, asking: rest };
    return rest.length > 0 ? after : settleContract(after, "sun", null, after.sunCaller);
  },
};

export const applyBid = (s, action) => {
  const seat = s.asking[0];
  const called = { ...s, bids: [...s.bids, { seat, action }] };
  return STAGE_REDUCERS[s.stage](called, seat, action);
};

// -------------------------------------------------------------- raises --

export const raisingActions = (s) => {
  const call = RAISE_LADDER[s.level].call;
  return call ? ["pass", call] : ["pass"];
};

const raiseAsker = (s) => s.contract.bidder; // the bid winner triples (RAISE.1)

export const applyRaise = (s, action) => {
  const seat = s.asking[0];
  const called = { ...s, raises: [...s.raises, { seat, action }] };
  if (action === "pass") {
    const rest = tail(s.asking);
    if (s.level === 0 && rest.length > 0) return { ...called, asking: rest };
    return startPlay(called);
  }
  const level = s.level + 1;
  const raised = {
    ...called,
    level,
    multiplier: RAISE_LADDER[level].multiplier,
    doubler: s.level === 0 ? seat : s.doubler,
    locked: s.contract.kind === "hokum", // A10 any_raise: every raise locks a hokum round
  };
  return RAISE_LADDER[level].call ? { ...raised, asking: [raiseAsker(raised)] } : startPlay(raised);
};
