// One hand of Pitch scored in the browser: a mirror of scores/rules.py (score_hand and goes_out), which stays the
// single source of truth. The phone needs it to move the scoreboard at once on "Save hand" and to keep score while
// offline; the server scores every hand again and its answer wins. tests/test_browser_scorer.py runs this module
// over thousands of hands generated from rules.py (scores/scorer_fixture.py) and fails on any difference.
//
// A table is {seats, sides, teams: [{name, players}], rules: {target, going_out, min_bid, steal, smudge}} (the
// keys of rules.Rules.as_dict); names are exactly as the server sends them.

export const POINTS = ["high", "low", "jack", "game"];
const BIDS = [1, 2, 3, 4];
const PITCH = 4; // Bidding 4: a made smudge needs it.

/** The side a name means: a side itself, or in partnership play a player's team; null for anyone else. */
export function sideOf(table, name) {
  if (typeof name !== "string") return null;
  if (table.teams.length) {
    const team = table.teams.find((t) => t.name === name || t.players.includes(name));
    return team ? team.name : null;
  }
  return table.seats.includes(name) ? name : null;
}

/** Whether the pitcher's side wins after the hand: a made smudge first, then the going-out rule. */
export function goesOut(rules, { bid, won, total, set }) {
  if (rules.smudge && bid === PITCH && won === POINTS.length) return true;
  return total >= rules.target && (rules.going_out === "pitcher" || !set);
}

/**
 * Score one hand {pitcher, bid, high, low, jack, game} (jack and game null when not in play / tied) from the
 * totals before it, keyed by side. Returns {pitcherSide, won, delta, totals, set, winner}, or {errors: [field...]}
 * naming the fields the rules refuse.
 */
export function scoreHand(table, hand, before) {
  const errors = [];
  const pitcher = table.seats.includes(hand.pitcher) ? hand.pitcher : null;
  if (pitcher === null) errors.push("pitcher");
  if (!BIDS.includes(hand.bid) || hand.bid < table.rules.min_bid) errors.push("bid");
  const points = {};
  for (const point of POINTS) {
    const name = hand[point] ?? null;
    points[point] = name === null && (point === "jack" || point === "game") ? null : sideOf(table, name);
    if (points[point] === null && name !== null) errors.push(point);
    if (name === null && (point === "high" || point === "low")) errors.push(point);
  }
  if (errors.length) return { errors };
  const pitcherSide = sideOf(table, pitcher);
  const won = Object.fromEntries(table.sides.map((side) => [side, 0]));
  for (const side of Object.values(points)) if (side !== null) won[side] += 1;
  const delta = { ...won };
  const set = won[pitcherSide] < hand.bid;
  if (set) delta[pitcherSide] = -hand.bid;
  const totals = Object.fromEntries(table.sides.map((side) => [side, before[side] + delta[side]]));
  const out = goesOut(table.rules, { bid: hand.bid, won: won[pitcherSide], total: totals[pitcherSide], set });
  return { pitcherSide, won, delta, totals, set, winner: out ? pitcherSide : null };
}
