// One hand of Pitch scored in the browser: a mirror of scores/engine/rules.py (score_hand and goes_out), which
// stays the single source of truth. The phone needs it to move the scoreboard at once on "Save hand" and to keep score while
// offline; the server scores every hand again and its answer wins. tests/table/test_browser_scorer.py runs this module
// over thousands of hands generated from rules.py (tests/scorer_fixture.py) and fails on any difference.
//
// A table is {seats, sides, teams: [{name, players}], rules} (rules.Table.as_dict), its rules the keys of
// rules.Rules.as_dict: {variant, points, target, going_out, min_bid, steal, smudge, negative}, and hands for a game of
// a number of hands, where points lists the game's point keys whatever its variant. Names are exactly as the server
// sends them.

// The catalogue (rules.CATALOGUE): each point's value, and whether a hand may lack it (not in play; Game tied).
export const POINTS = {
  high: { value: 1, optional: false },
  low: { value: 1, optional: false },
  jack: { value: 1, optional: true },
  off_jack: { value: 1, optional: true },
  joker: { value: 1, optional: true },
  big_joker: { value: 1, optional: true },
  little_joker: { value: 1, optional: true },
  ace: { value: 1, optional: true },
  off_ace: { value: 1, optional: true },
  ten: { value: 1, optional: true },
  deuce: { value: 1, optional: true },
  three: { value: 3, optional: true },
  off_three: { value: 3, optional: true },
  five: { value: 5, optional: true },
  game: { value: 1, optional: true },
};

/** The most a hand of these rules can award: the top bid. */
export const topBid = (rules) => rules.points.reduce((sum, key) => sum + POINTS[key].value, 0);


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
export function goesOut(rules, { bid, won, score, set }) {
  const top = topBid(rules);
  if (rules.smudge && bid === top && won === top) return true;
  return score >= rules.target && (rules.going_out === "pitcher" || !set);
}

/** Who wins a game of a number of hands after hand `number` (rules.hand_count_winner): the side ahead once they are
 * played, alone; null before then, and while sides share the lead (a tie is played off a hand at a time). */
export function handCountWinner(rules, number, totals) {
  if (rules.hands === undefined || rules.hands === null || number < rules.hands) return null;
  const best = Math.max(...Object.values(totals));
  const leaders = Object.keys(totals).filter((side) => totals[side] === best);
  return leaders.length === 1 ? leaders[0] : null;
}

const playsHands = (rules) => rules.hands !== undefined && rules.hands !== null;

/** Why each side at or past the target did not win (rules.not_out): "not_pitcher", or "set" for the pitcher's side. */
export function notOut(rules, totals, pitcherSide, winner) {
  if (winner !== null || playsHands(rules)) return {};
  const sides = Object.entries(totals).filter(([, total]) => total >= rules.target);
  return Object.fromEntries(sides.map(([side]) => [side, side === pitcherSide ? "set" : "not_pitcher"]));
}

/**
 * Score hand `number` {pitcher, bid, points: {key: name or null}} from the totals before it, keyed by side. Returns
 * {pitcherSide, points, won, delta, totals, set, winner, notOut} (points: each point's side, null where missing), or
 * {errors: [field...]} naming the fields the rules refuse: a point's key, or "points" for a missing or extra key.
 */
export function scoreHand(table, hand, before, number) {
  const { rules } = table;
  const top = topBid(rules);
  const errors = [];
  const pitcher = table.seats.includes(hand.pitcher) ? hand.pitcher : null;
  if (pitcher === null) errors.push("pitcher");
  if (!Number.isInteger(hand.bid) || hand.bid < rules.min_bid || hand.bid > top) errors.push("bid");
  const given = hand.points;
  const points = {};
  const won = Object.fromEntries(table.sides.map((side) => [side, 0]));
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    errors.push("points");
  } else {
    for (const key of rules.points) {
      if (!Object.hasOwn(given, key)) {
        errors.push("points");
        continue;
      }
      const name = given[key];
      if (name === null && POINTS[key].optional) {
        points[key] = null;
        continue;
      }
      points[key] = sideOf(table, name);
      if (points[key] === null) errors.push(key);
      else won[points[key]] += POINTS[key].value;
    }
    if (Object.keys(given).some((key) => !rules.points.includes(key))) errors.push("points");
  }
  if (errors.length) return { errors };
  const pitcherSide = sideOf(table, pitcher);
  let delta = { ...won };
  const set = won[pitcherSide] < hand.bid;
  if (set) delta[pitcherSide] = -hand.bid;
  const totals = Object.fromEntries(
    table.sides.map((side) => [side, rules.negative ? before[side] + delta[side] : Math.max(0, before[side] + delta[side])]),
  );
  if (!rules.negative) delta = Object.fromEntries(table.sides.map((side) => [side, totals[side] - before[side]]));
  let winner;
  if (playsHands(rules)) winner = handCountWinner(rules, number, totals);
  else winner = goesOut(rules, { bid: hand.bid, won: won[pitcherSide], score: totals[pitcherSide], set }) ? pitcherSide : null;
  return { pitcherSide, points, won, delta, totals, set, winner, notOut: notOut(rules, totals, pitcherSide, winner) };
}
