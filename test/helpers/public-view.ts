/**
 * A seat's view with everything private to that seat taken out: what the onlooker's view
 * (built from the public facts alone) must equal, whichever seat's view it starts from. For
 * tests only: the server never builds a public view this way.
 */
import type { PlayerView, PublicView } from '../../env/observation/view.ts';

export function withoutPrivate(v: PlayerView): PublicView {
  const { handSize: _own, ...rest } = v;
  return {
    ...rest,
    seat: null,
    hand: null,
    deck: { size: v.deck.size, reshuffles: v.deck.reshuffles },
    table: v.table.map((p) => ({ ...p, offset: p.seat, known: {} })),
  };
}
