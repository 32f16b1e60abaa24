import type { Session } from './session.js';

/** What a view gets: the signed-in session, where to draw, and the route's parameters. */
export interface ViewContext {
  session: Session;
  main: HTMLElement;
  params: URLSearchParams;
  /** Runs when the view is left (stop polling). */
  onLeave(cleanup: () => void): void;
  navigate(hash: string): void;
}
