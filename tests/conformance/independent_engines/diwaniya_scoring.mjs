// Scoring a finished round (SCORE.*). Readings played: A4 half_points_or_more,
// A5 each_team or bidder_takes_rest (chosen at `start`), A6 bunts_before_rounding,
// A7 all_declared, A8 maximum_only, A9 sun_44_hokum_25, A12 points_only.
// The engine keeps no game score: `totals` of a result are the round's points.
import { cardValue, pair, teamOf } from "./diwaniya_cards.mjs";
import { CONSTANTS, PROJECT_VALUE } from "./diwaniya_tables.mjs";

// SCORE.7 and SCORE.8, bunts to points.
const CONVERSION = {
  sun: (b) => (b % 10 === 5 ? Math.floor((b * 2) / 10) : Math.floor((Math.floor((b + 5) / 10) * 10 * 2) / 10)),
  hokum: (b) => (b % 10 > 5 ? Math.floor(b / 10) + 1 : Math.floor(b / 10)),
};

// A5: how the two teams' bunts become points.
const ROUNDING = {
  each_team: (convert, bunts) => pair((t) => convert(bunts[t])),
  bidder_takes_rest: (convert, bunts, bidderTeam) => {
    const other = 1 - bidderTeam;
    const theirs = convert(bunts[other]);
    const whole = convert(bunts[0] + bunts[1]);
    return pair((t) => (t === other ? theirs : whole - theirs));
  },
};

const context = (s) => {
  const mode = s.contract.kind;
  const convert = CONVERSION[mode];
  const round = ROUNDING[s.rules.readings.rounding];
  const bidderTeam = teamOf(s.contract.bidder);
  return { mode, bidderTeam, convertPair: (values) => round(convert, values, bidderTeam) };
};

// A12 points_only: a raise leaves the projects out of the multiplication; with
// A6 bunts_before_rounding the projects set apart add what they add to the
// card bunts unraised (pack 0.5), and, with no card bunts to join (on top of a
// maximum or a kaboot), are converted as bunts on their own.
// The bug `projects_multiplied` lets the raise multiply them too.
const keptApart = (s, projects, multiplier) =>
  pair((t) => (multiplier === 1 || s.rules.bugs.has("projects_multiplied") ? 0 : projects[t]));

const roundPoints = (s, ctx, bunts, projects, multiplier) => {
  const kept = keptApart(s, projects, multiplier);
  const main = ctx.convertPair(pair((t) => bunts[t] + projects[t] - kept[t]));
  const unraised = ctx.convertPair(pair((t) => bunts[t] + projects[t]));
  return pair((t) => main[t] * multiplier + unraised[t] - main[t]);
};

const pointsOnTop = (s, ctx, base, projects, multiplier) => {
  const kept = keptApart(s, projects, multiplier);
  const raised = ctx.convertPair(pair((t) => projects[t] - kept[t]));
  const plain = ctx.convertPair(kept);
  return pair((t) => (base[t] + raised[t]) * multiplier + plain[t]);
};

const SUCCESS = {
  // A4 half_points_or_more: at least 13 (sun) or 8 (hokum) converted points.
  half_points_or_more: (ctx, points) => points[ctx.bidderTeam] >= CONSTANTS.successMargin[ctx.mode],
};

const failurePoints = (ctx, multiplier) =>
  pair((t) => (t === ctx.bidderTeam ? 0 : CONSTANTS.failurePoints[ctx.mode] * multiplier));

const kabootPoints = (s, ctx, team, projects, multiplier) => {
  const base = pair((t) => (t === team ? CONSTANTS.kaboot[ctx.mode] : 0));
  const own = pair((t) => (t === team ? projects[t] : 0));
  return pointsOnTop(s, ctx, base, own, multiplier);
};

const kabootTeam = (s) => {
  const teams = s.tricks.map((t) => teamOf(t.winner));
  return teams.every((t) => t === teams[0]) ? teams[0] : null;
};

export const scoreRound = (s) => {
  const ctx = context(s);
  const trump = s.contract.trump;
  const cardBunts = pair((team) =>
    s.tricks
      .filter((t) => teamOf(t.winner) === team)
      .flatMap((t) => t.plays)
      .reduce((sum, p) => sum + cardValue(p.card, trump, s.rules.bugs), 0),
  );
  const lastTeam = teamOf(s.tricks[s.tricks.length - 1].winner);
  const lastTrickBunts = pair((t) => (t === lastTeam ? CONSTANTS.lastTrickBonus : 0));
  const bunts = pair((t) => cardBunts[t] + lastTrickBunts[t]);
  const scoring = s.declarations; // A7 all_declared, baloot included
  const projects = pair((team) =>
    scoring
      .filter((p) => teamOf(p.seat) === team)
      .reduce((sum, p) => sum + PROJECT_VALUE[ctx.mode][p.kind], 0),
  );
  const points = roundPoints(s, ctx, bunts, projects, 1);
  const sweep = kabootTeam(s);
  const success =
    sweep != null ? sweep === ctx.bidderTeam : SUCCESS[s.rules.readings.bidder_success](ctx, points);
  const added =
    sweep != null
      ? kabootPoints(s, ctx, sweep, projects, s.multiplier)
      : success
        ? roundPoints(s, ctx, bunts, projects, s.multiplier)
        : failurePoints(ctx, s.multiplier);
  return {
    contract: { kind: s.contract.kind, trump: s.contract.trump, bidder: s.contract.bidder },
    multiplier: s.multiplier,
    card_bunts: cardBunts,
    last_trick_bunts: lastTrickBunts,
    projects: pair((team) => scoring.filter((p) => teamOf(p.seat) === team)),
    points,
    success,
    kaboot: sweep,
    added,
    totals: added,
    game_over: false,
    winner: null,
  };
};
