/**
 * What happens in a game, as events. The engine emits them only when asked (a log array in
 * the context), so stepping without a log costs nothing. Events naming a hidden card carry
 * it for the seats that may know it; `eventForSeat` (observation/visible.ts) strips it for everybody else.
 */
export type GameEvent =
  | { k: 'turn'; seat: number; turn: number }
  | { k: 'pause'; seat: number }
  | { k: 'draw'; seat: number; count: number; cards: number[] }
  | { k: 'reshuffle'; size: number; closingPlaced: boolean }
  | { k: 'closing'; seat: number }
  | { k: 'play'; seat: number; card: number; target?: number; shot?: number }
  | { k: 'discard'; seat: number; card: number }
  | { k: 'done'; seat: number }
  | { k: 'excuse'; seat: number; card: number; redirect?: number }
  | { k: 'resolve'; seat: number; card: number; target: number }
  | { k: 'shot_choice'; seat: number; choice: 'shot' | 'beer' | 'small_beer' | 'nothing'; card?: number; points: number }
  | { k: 'take'; from: number; to: number; card: number; by: 'brawl' | 'thats_my_order' }
  | { k: 'pick_up'; seat: number; card: number }
  | { k: 'x'; seat: number; card: number; target: number; give?: number; fromHand?: boolean }
  | {
      k: 'digest';
      seat: number;
      copyOf?: number;
      points: number;
      drunkenness: number;
      total?: number;
      die?: number;
      move: number;
      abstinence: number;
      level: number;
      space: number;
    }
  | { k: 'title'; seat: number; title: number }
  | { k: 'level_up'; seat: number; level: number }
  | { k: 'out'; seat: number; how: 'wasted' | 'thrown_out' }
  | { k: 'copy_lost'; seat: number; target: number }
  | { k: 'cleanup'; seat: number }
  | { k: 'end'; scores: number[]; winners: number[] };

// Which part of an event a seat may see is decided with the rest of what it may see.
export { eventForSeat, HIDDEN } from './observation/visible.ts';
