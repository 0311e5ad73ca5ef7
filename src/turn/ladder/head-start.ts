import { Observable, ReplaySubject, switchMap, tap } from 'rxjs';
import type { CardSummary } from '../../port/card.js';

/**
 * `card$`, then `body` with the card, and `early` started at once beside the card (subscribed right
 * after it, so a card that fails first is the turn's error and `early` is left at once): `early` is
 * handed the agent's name as it comes with the card, and `body` what `early` gave, kept from its start
 * (replayed). `card$.pipe(switchMap(body))`, with work that needs no card started before it.
 */
export function headStart<S, R>(
  card$: Observable<CardSummary>,
  early: (agent$: Observable<string>) => Observable<S>,
  body: (card: CardSummary, early$: Observable<S>) => Observable<R>,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    const agent$ = new ReplaySubject<string>(1);
    const early$ = new ReplaySubject<S>();
    card$
      .pipe(
        tap((card) => agent$.next(card.url)),
        switchMap((card) => body(card, early$)),
      )
      .subscribe(subscriber);
    if (subscriber.closed) return;
    return early(agent$).subscribe(early$);
  });
}
