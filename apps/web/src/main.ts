import type { ViewContext } from './context.js';
import { h, replace } from './dom.js';
import { forgetKinds, loadKinds } from './kinds.js';
import { Session } from './session.js';
import { assistantView } from './views/assistant.js';
import { catalogueView } from './views/catalogue.js';
import { changesView } from './views/changes.js';
import { dependenciesView } from './views/dependencies.js';
import { detailView } from './views/detail.js';
import { notificationsView } from './views/notifications.js';
import { registerView } from './views/register.js';
import { searchView } from './views/search.js';
import { signInView } from './views/sign-in.js';
import { webhooksView } from './views/webhooks.js';

const header = document.getElementById('app-header')!;
const main = document.getElementById('app-main')!;
let session = Session.restore();
let leaving: (() => void)[] = [];
/** Counts navigations: a view is current while the count is the one it was drawn at. */
let generation = 0;

/**
 * Hash routes: #/search?q=…, #/apis/:id[?version=…][&operation=…][&searchId=…], #/apis/:id/changes[?from=…&to=…],
 * #/register[?mode=import|?apiId=…[&version=…|&mode=version]], #/catalogue[?page=…], #/assistant,
 * #/dependencies[?ending=1], #/notifications, #/webhooks (publishers).
 */
async function route(): Promise<void> {
  const drawn = ++generation;
  const isCurrent = () => drawn === generation;
  leaving.forEach((cleanup) => cleanup());
  leaving = [];
  // Asked once a session, before anything is drawn: the views name kinds, verbs and formats from it.
  if (session) await loadKinds(session.token);
  if (!isCurrent()) return;
  // Each navigation draws into an element of its own, put in place of the last one's: a view left
  // before its answers came (the catalogue of the org just switched from, say) paints into an
  // element no longer in the page, never over the view that replaced it.
  const host = h('div', { class: 'view' });
  replace(main, host);
  if (!session) {
    drawHeader();
    await signInView(host, (started) => {
      session = started;
      navigate('#/search');
      void route();
    });
    return;
  }
  const [path, query = ''] = location.hash.replace(/^#/, '').split('?');
  const ctx: ViewContext = {
    session,
    main: host,
    params: new URLSearchParams(query),
    isCurrent,
    // A view left already stops at once what it starts late (a poll begun after its answer came).
    onLeave: (cleanup) => (isCurrent() ? leaving.push(cleanup) : cleanup()),
    // Nor does a late answer move the user away from where they went since.
    navigate: (hash) => {
      if (isCurrent()) navigate(hash);
    },
  };
  drawHeader(path);
  const api = path.match(/^\/apis\/([\w-]+)$/);
  if (api) return detailView(ctx, api[1]);
  const changes = path.match(/^\/apis\/([\w-]+)\/changes$/);
  if (changes) return changesView(ctx, changes[1]);
  if (path === '/register') return registerView(ctx);
  if (path === '/catalogue') return catalogueView(ctx);
  if (path === '/assistant') return assistantView(ctx);
  if (path === '/dependencies') return dependenciesView(ctx);
  if (path === '/notifications') return notificationsView(ctx);
  if (path === '/webhooks' && session.can('publisher')) return webhooksView(ctx);
  return searchView(ctx);
}

function navigate(hash: string): void {
  if (location.hash === hash) void route();
  else location.hash = hash;
}

function drawHeader(path = ''): void {
  const link = (href: string, label: string, active: boolean) =>
    h('a', { href, class: active ? 'active' : undefined, 'aria-current': active ? 'page' : undefined }, label);
  if (!session) {
    replace(header, h('a', { class: 'brand', href: '#/' }, 'API discovery'));
    return;
  }
  const current = session;
  const orgSwitcher = h(
    'select',
    {
      id: 'org-switcher',
      'aria-label': 'Org',
      onchange: () => {
        current.switchOrg(orgSwitcher.value);
        void route();
      },
    },
    current.claims.orgs.map((org) => h('option', { value: org, selected: org === current.org }, org)),
  );
  replace(
    header,
    h('a', { class: 'brand', href: '#/search' }, 'API discovery'),
    h(
      'nav',
      {},
      link('#/search', 'Search', path === '' || path === '/' || path === '/search'),
      link('#/catalogue', 'Catalogue', path === '/catalogue'),
      current.can('publisher') ? link('#/register', 'Register', path === '/register') : null,
      link('#/dependencies', 'Dependencies', path === '/dependencies'),
      link('#/notifications', 'Notifications', path === '/notifications'),
      current.can('publisher') ? link('#/webhooks', 'Webhooks', path === '/webhooks') : null,
      link('#/assistant', 'Assistant', path === '/assistant'),
    ),
    h(
      'div',
      { class: 'who' },
      h('label', {}, 'Org ', orgSwitcher),
      h('span', { class: 'muted', title: current.claims.roles.join(', ') }, current.claims.sub),
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          id: 'sign-out',
          onclick: () => {
            Session.clear();
            forgetKinds();
            session = undefined;
            navigate('#/');
          },
        },
        'Sign out',
      ),
    ),
  );
}

/** `/` focuses the search box; arrow keys move between result cards; Enter on a card opens it. */
document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement;
  // A box that takes text; a checkbox or a button does not, so "/" still finds the search box from there.
  const typing = target.matches('input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit]), textarea, select');
  if (event.key === '/' && !typing) {
    event.preventDefault();
    const box = document.getElementById('search-input');
    if (box) box.focus();
    else navigate('#/search');
    return;
  }
  const cards = [...document.querySelectorAll<HTMLElement>('.card')];
  if (cards.length === 0 || (typing && target.id !== 'search-input')) return;
  const index = cards.indexOf(target.closest('.card') as HTMLElement);
  if (event.key === 'ArrowDown') {
    event.preventDefault();
    cards[Math.min(index + 1, cards.length - 1)].focus();
  } else if (event.key === 'ArrowUp' && index >= 0) {
    event.preventDefault();
    if (index === 0) document.getElementById('search-input')?.focus();
    else cards[index - 1].focus();
  } else if (event.key === 'Enter' && target.classList.contains('card')) {
    // Where its title leads: with the search it came from, so that opening it counts as feedback.
    navigate(target.querySelector('.card-title')!.getAttribute('href')!);
  }
});

// A skip link to the content: the header's links come first in the tab order. Not an in-page
// anchor (#app-main would be read as a route).
document.body.prepend(
  h(
    'a',
    {
      href: '#',
      class: 'skip-link',
      onclick: (event: Event) => {
        event.preventDefault();
        main.focus();
      },
    },
    'Skip to content',
  ),
);

window.addEventListener('hashchange', () => void route());
void route();
