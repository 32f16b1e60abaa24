import type { Session } from './session.js';

/** What a view gets: the signed-in session, where to draw, and the route's parameters. */
export interface ViewContext {
  session: Session;
  /** The view's own element: once the view is left it is out of the page, so a late answer drawn into it shows nowhere. */
  main: HTMLElement;
  params: URLSearchParams;
  /** Whether the view is still the one on screen (no navigation since it was drawn). */
  isCurrent(): boolean;
  /** Runs when the view is left (stop polling); at once when it was left already. */
  onLeave(cleanup: () => void): void;
  /** Goes elsewhere, unless the view was left already. */
  navigate(hash: string): void;
}
