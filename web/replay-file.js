/**
 * A game picked from a tournament's games.jsonl: one JSON object a line, in the order games
 * finished; a game is named by its "index", as the report and `czech-pub replay --game N`
 * name it. The page only finds the line; the server reads it (eval/game-line.ts, the one
 * reader of the format) and replays it.
 */

/**
 * @param {string} text  the file's contents
 * @param {number} index  the game's index
 * @returns {string}  its line, as it is
 */
export function lineOfGame(text, index) {
  if (!Number.isInteger(index) || index < 0) throw new Error('a game index is a whole number from 0');
  let games = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    games++;
    // Lines begin with their index (eval/game-line.ts); a line that is not JSON is skipped here and named by the server if chosen.
    const at = /^\{"index":(\d+),/.exec(line);
    if (at && Number(at[1]) === index) return line;
  }
  throw new Error(games === 0 ? 'the file holds no game records (a tournament\'s games.jsonl has one per line)' : `the file's ${games} games have no game ${index}`);
}
