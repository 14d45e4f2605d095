// Pure helpers over cards, seats and tricks, read from the tables.
import { PLAIN_STRENGTH, PLAIN_VALUE, TRUMP_STRENGTH, TRUMP_VALUE } from "./diwaniya_tables.mjs";

export const rankOf = (card) => card.slice(0, -1);
export const suitOf = (card) => card.slice(-1);
export const teamOf = (seat) => seat % 2;
export const partnerOf = (seat) => (seat + 2) % 4;
export const nextSeat = (seat) => (seat + 1) % 4;
export const othersInTurn = (seat) => [1, 2, 3].map((k) => (seat + k) % 4);
export const biddingOrder = (dealer) => [1, 2, 3, 4].map((k) => (dealer + k) % 4);
export const pair = (f) => [f(0), f(1)];

export const isTrump = (card, trump) => trump != null && suitOf(card) === trump;

export const strength = (card, trump) =>
  (isTrump(card, trump) ? TRUMP_STRENGTH : PLAIN_STRENGTH)[rankOf(card)];

// Bunts of a card; the bug `ten_eleven` prices a plain ten like an ace.
export const cardValue = (card, trump, bugs) => {
  if (isTrump(card, trump)) return TRUMP_VALUE[rankOf(card)];
  if (bugs.has("ten_eleven") && rankOf(card) === "10") return 11;
  return PLAIN_VALUE[rankOf(card)];
};

// PLAY.3: the highest trump, else the highest card of the led suit.
export const trickWinner = (plays, trump) => {
  const trumps = plays.filter((p) => isTrump(p.card, trump));
  const led = suitOf(plays[0].card);
  const contenders = trumps.length > 0 ? trumps : plays.filter((p) => suitOf(p.card) === led);
  return contenders.reduce((best, p) => (strength(p.card, trump) > strength(best.card, trump) ? p : best))
    .seat;
};
