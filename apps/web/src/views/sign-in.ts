import { ragApiClient } from '../api-client.js';
import { errorBox } from '../components.js';
import { h, handler, replace } from '../dom.js';
import { Session } from '../session.js';

/** Paste a token — or, on a development stack, ask for one. */
export async function signInView(main: HTMLElement, onSignedIn: (session: Session) => void): Promise<void> {
  const message = h('div', { 'aria-live': 'polite' });
  const token = h('textarea', { id: 'token-input', rows: 4, spellcheck: false, placeholder: 'eyJhbGciOi…', 'aria-label': 'Token' });
  const begin = async (value: string) => {
    try {
      const session = Session.start(value.trim());
      // The gateway has the last word: one cheap call proves the token works.
      await ragApiClient.listApis(session.token, { orgId: session.org, pageSize: 1 });
      onSignedIn(session);
    } catch (error) {
      Session.clear();
      replace(message, errorBox(error, 'Sign-in failed'));
    }
  };

  const dev = h('section', { class: 'dev-login', hidden: true });
  replace(
    main,
    h(
      'div',
      { class: 'sign-in' },
      h('h1', {}, 'Sign in'),
      h('p', {}, 'Paste a bearer token (a JWT with your ', h('code', {}, 'orgs'), ' and ', h('code', {}, 'roles'), ').'),
      h(
        'form',
        {
          onsubmit: (event: Event) => {
            event.preventDefault();
            void begin(token.value);
          },
        },
        token,
        h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'sign-in' }, 'Sign in')),
      ),
      dev,
      message,
    ),
  );
  token.focus();

  const info = await ragApiClient.authInfo().catch(() => ({ devLogin: false }));
  if (!info.devLogin) return;
  replace(dev, ...devSignIn(message, begin));
  dev.hidden = false;
}

/** The development stack's form: pick orgs and roles, and the gateway issues a token to sign in with (`begin`). */
function devSignIn(message: HTMLElement, begin: (token: string) => Promise<void>): HTMLElement[] {
  const orgs = h('input', { id: 'dev-orgs', value: 'demo', 'aria-label': 'Orgs' });
  const roles = (['reader', 'publisher', 'admin'] as const).map((role) =>
    h('label', {}, h('input', { type: 'checkbox', value: role, checked: true, class: 'dev-role' }), ` ${role}`),
  );
  return [
    h('h2', {}, 'Development sign-in'),
    h('p', { class: 'muted' }, 'This server runs in development mode and hands out tokens for the asking.'),
    h(
      'form',
      {
        onsubmit: handler(async (event: Event) => {
          event.preventDefault();
          const chosenOrgs = orgs.value
            .split(',')
            .map((org) => org.trim())
            .filter(Boolean);
          const chosenRoles = roles
            .map((label) => label.querySelector('input')!)
            .filter((box) => box.checked)
            .map((box) => box.value as 'reader');
          // Said here rather than by the gateway's 400: a token without an org or a role opens nothing.
          const missing = chosenOrgs.length === 0 ? 'enter at least one org' : chosenRoles.length === 0 ? 'choose at least one role' : undefined;
          if (missing) {
            replace(message, errorBox(new Error(missing), 'Could not get a development token'));
            return;
          }
          try {
            const { token: issued } = await ragApiClient.devToken({ orgs: chosenOrgs, roles: chosenRoles });
            await begin(issued);
          } catch (error) {
            replace(message, errorBox(error, 'Could not get a development token'));
          }
        }),
      },
      h('label', { class: 'field' }, h('span', {}, 'Orgs (comma-separated)'), orgs),
      h('div', { class: 'roles' }, roles),
      h('div', { class: 'actions' }, h('button', { type: 'submit', id: 'dev-sign-in' }, 'Get a development token')),
    ),
  ];
}
