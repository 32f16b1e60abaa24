import type { FeedbackEvidence, FeedbackRequest } from '../../../libs/contracts/src/index.js';
import { ragApiClient } from './api-client.js';
import { h, replace } from './dom.js';

type Operation = NonNullable<FeedbackRequest['operation']>;

/**
 * An API's page as a search's card links to it. `searchId` (a search with words) travels in the
 * route, so that opening the API, or one of its operations there, counts as feedback on that
 * search, also after a reload or in a new tab; `operation` opens that one on arrival.
 */
export function cardHash(apiId: string, searchId: string | undefined, more: { version?: string; operation?: Operation } = {}): string {
  const params = new URLSearchParams({
    ...(more.version ? { version: more.version } : {}),
    ...(more.operation ? { operation: operationKey(more.operation) } : {}),
    ...(searchId ? { searchId } : {}),
  }).toString();
  return `#/apis/${apiId}${params ? `?${params}` : ''}`;
}

/** `POST /store/order`: how the route and the detail page's rows (`data-operation`) name an operation. */
export function operationKey(operation: Operation): string {
  return `${operation.method} ${operation.path}`;
}

/** What was opened after which search, in this tab: the server keeps one signal per search, API and operation anyway. */
const opened = new Set<string>();

/**
 * Tells the server that an API, or one of its operations, was opened after a search: a weaker
 * "this answered it". Fire and forget: a lost signal costs the ranking little, and the page must
 * neither wait for it nor show its failure.
 */
export function noteOpened(token: string, searchId: string, apiId: string, operation?: Operation): void {
  const key = JSON.stringify([searchId, apiId, operation ? operationKey(operation) : null]);
  if (opened.has(key)) return;
  opened.add(key);
  void ragApiClient.sendFeedback(token, { searchId, apiId, ...(operation ? { operation } : {}), helpful: true, signal: 'opened' }).catch(() => undefined);
}

/** Whose need a vote answers: the person, the org searched and the query's words. */
export interface VoteNeed {
  user: string;
  org: string;
  query: string;
}

/** Votes kept in this browser, newest last, at most `VOTES_KEPT`. */
const VOTES_KEY = 'api-discovery.votes';
const VOTES_KEPT = 500;

/**
 * The vote key: a reload searches again and gets a new `searchId`, so a vote is remembered by
 * the need it answered (the server, too, counts one person once per need and API): the person,
 * the org and the query's words (in any case and spacing), and the API.
 */
function voteKey(need: VoteNeed, apiId: string): string {
  return JSON.stringify([need.user, need.org, need.query.trim().toLowerCase().replace(/\s+/g, ' '), apiId]);
}

function storedVotes(): Record<string, boolean> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(VOTES_KEY) ?? '{}');
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

/** This person's vote on an API for this need, as this browser kept it. */
export function rememberedVote(need: VoteNeed, apiId: string): boolean | undefined {
  const vote = storedVotes()[voteKey(need, apiId)];
  return typeof vote === 'boolean' ? vote : undefined;
}

function rememberVote(need: VoteNeed, apiId: string, helpful: boolean): void {
  const votes = storedVotes();
  const key = voteKey(need, apiId);
  delete votes[key];
  votes[key] = helpful;
  const keys = Object.keys(votes);
  for (const old of keys.slice(0, Math.max(0, keys.length - VOTES_KEPT))) delete votes[old];
  try {
    localStorage.setItem(VOTES_KEY, JSON.stringify(votes));
  } catch {
    // Storage full or refused: the vote was saved on the server all the same.
  }
}

/**
 * A card's two vote buttons ("This answered it", "Not what I need"): the one pressed shows as
 * chosen, also after a reload (kept in this browser by `need`), the other changes the vote. A
 * failure is told on the card, beside them.
 */
export function voteButtons(token: string, searchId: string, apiId: string, apiName: string, need?: VoteNeed): HTMLElement {
  const status = h('span', { class: 'vote-status', 'aria-live': 'polite' });
  let chosen = need ? rememberedVote(need, apiId) : undefined;
  // One vote at a time, in the order pressed: the server keeps the last one it gets.
  let sending = Promise.resolve();
  const press = (helpful: boolean) => {
    sending = sending.then(async () => {
      if (chosen === helpful) return;
      try {
        await ragApiClient.sendFeedback(token, { searchId, apiId, helpful, signal: 'vote' });
      } catch (error) {
        replace(status, h('span', { class: 'error-text' }, `Your vote was not saved: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      chosen = helpful;
      if (need) rememberVote(need, apiId, helpful);
      helpfulButton.setAttribute('aria-pressed', String(helpful));
      unhelpfulButton.setAttribute('aria-pressed', String(!helpful));
      replace(status, 'Thanks — this helps the next person with the same need');
    });
  };
  const helpfulButton = h(
    'button',
    { type: 'button', class: 'vote-helpful', 'aria-pressed': String(chosen === true), onclick: () => press(true) },
    'This answered it',
  );
  const unhelpfulButton = h(
    'button',
    { type: 'button', class: 'vote-unhelpful', 'aria-pressed': String(chosen === false), onclick: () => press(false) },
    'Not what I need',
  );
  // The group names the API: every card has buttons of the same words.
  return h('div', { class: 'vote', role: 'group', 'aria-label': `Did ${apiName} answer your search?` }, helpfulButton, unhelpfulButton, status);
}

/**
 * What people of the org did after searches for the same need, each as what it was: "Voted the
 * answer by 2 people for this need", "Opened after a search for this need by 1 person" (opening is
 * no vote: in this UI or by their assistant), the "not what they needed" that pushed a card down,
 * and under them the server's `reason`, which says how far feedback moved the card. Nothing
 * without any of them.
 */
export function feedbackEvidence(feedback: FeedbackEvidence | undefined): HTMLElement | null {
  if (!feedback) return null;
  const people = (count: number) => `${count} ${count === 1 ? 'person' : 'people'}`;
  const said = [
    feedback.helpful > 0 ? h('span', { class: 'voted-by' }, `Voted the answer by ${people(feedback.helpful)} for this need`) : null,
    feedback.opened > 0 ? h('span', { class: 'opened-by' }, `Opened after a search for this need by ${people(feedback.opened)}`) : null,
    // Only when it weighed: a "no" among more "yes"es did not move the card, and would only puzzle.
    feedback.notHelpful > 0 && feedback.weight < 0
      ? h('span', { class: 'not-needed' }, `${people(feedback.notHelpful)} said this was not what they needed`)
      : null,
  ].filter((part): part is HTMLElement => part !== null);
  if (said.length === 0) return null;
  return h(
    'p',
    { class: 'feedback-evidence' },
    ...said.flatMap((part, index) => (index === 0 ? [part] : [' · ', part])),
    feedback.reason ? h('span', { class: 'feedback-reason' }, feedback.reason) : null,
  );
}
