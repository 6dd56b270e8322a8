/** What every Get Portfolio description says. */
export const PORTFOLIO_TEXT =
  'A portfolio holds the reports of one customer and its consumer (every report carries its `portfolioId`); it answers the latest report of each type, newest first. The id may leave out its version (`dyr6qvqd2yhb-port`: the latest); a malformed id answers 400 (16700), one without reports 404 (16701). See docs/reports.md.';
