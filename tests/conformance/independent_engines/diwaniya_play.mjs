// The play of the tricks (PLAY.*, RAISE.2): playable cards and reducers.
// Reading played: A15 must_trump_unless_partner_wins.
import { isTrump, partnerOf, strength, suitOf, teamOf, trickWinner } from "./diwaniya_cards.mjs";
import { declarationActions, matchDeclaration, noteBaloot } from "./diwaniya_projects.mjs";
import { scoreRound } from "./diwaniya_scoring.mjs";
import { CONSTANTS } from "./diwaniya_tables.mjs";

export const toPlay = (s) => (s.leader + s.trick.length) % 4;

const leadChoices = (s, hand) => {
  if (!s.locked) return hand;
  const others = hand.filter((c) => !isTrump(c, s.contract.trump));
  return others.length > 0 ? others : hand;
};

const trumpDuty = (s, seat, hand) => {
  const trump = s.contract.trump;
  const trumps = hand.filter((c) => isTrump(c, trump));
  if (trumps.length === 0) return hand;
  const opponentTrumped = s.trick.some((p) => isTrump(p.card, trump) && teamOf(p.seat) !== teamOf(seat));
  if (!opponentTrumped) return trumps;
  const top = Math.max(...s.trick.filter((p) => isTrump(p.card, trump)).map((p) => strength(p.card, trump)));
  const higher = trumps.filter((c) => strength(c, trump) > top);
  return higher.length > 0 ? higher : trumps;
};

const voidChoices = (s, seat, hand) => {
  if (s.contract.kind !== "hokum") return hand;
  const partnerWins = trickWinner(s.trick, s.contract.trump) === partnerOf(seat);
  if (partnerWins && !s.rules.bugs.has("no_partner_exemption")) return hand;
  return trumpDuty(s, seat, hand);
};

export const playableCards = (s, seat) => {
  const hand = s.hands[seat];
  if (s.trick.length === 0) return leadChoices(s, hand);
  const led = suitOf(s.trick[0].card);
  const following = hand.filter((c) => suitOf(c) === led);
  if (following.length === 0) return voidChoices(s, seat, hand);
  if (s.rules.bugs.has("trump_instead_of_follow") && s.contract.kind === "hokum") {
    return [...following, ...hand.filter((c) => isTrump(c, s.contract.trump) && suitOf(c) !== led)];
  }
  return following;
};

export const playActions = (s) => {
  const seat = toPlay(s);
  return [...declarationActions(s, seat), ...playableCards(s, seat).map((c) => `play ${c}`)];
};

const finishRound = (s) => {
  const result = scoreRound(s);
  return { ...s, phase: "round_over", lastResult: result, nextDealer: (s.dealer + 1) % 4 };
};

const closeTrick = (s) => {
  const winner = trickWinner(s.trick, s.contract.trump);
  const done = {
    ...s,
    tricks: [...s.tricks, { plays: s.trick, winner }],
    trickWinners: [...s.trickWinners, winner],
    trick: [],
    leader: winner,
  };
  return done.tricks.length < CONSTANTS.tricksPerRound ? done : finishRound(done);
};

const cardPlayed = (s, seat, card) => {
  const played = {
    ...s,
    hands: s.hands.map((hand, i) => (i === seat ? hand.filter((c) => c !== card) : hand)),
    trick: [...s.trick, { seat, card }],
  };
  const after = noteBaloot(played, seat, card);
  return after.trick.length < 4 ? after : closeTrick(after);
};

export const applyPlay = (s, action) => {
  const seat = toPlay(s);
  if (action.startsWith("declare ")) {
    const project = matchDeclaration(s, seat, action);
    return { ...s, declarations: [...s.declarations, project] };
  }
  return cardPlayed(s, seat, action.split(" ")[1]);
};
