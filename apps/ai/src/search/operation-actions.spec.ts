import { actionFit, actionOf, needAction, objectFit, operationAction, relationOf, splitWords } from './operation-actions.js';

describe(splitWords.name, () => {
  it.each([
    ['RefundPayment', ['refund', 'payment']],
    ['addToCart', ['add', 'to', 'cart']],
    ['create_ticket', ['create', 'ticket']],
    ['parcels/{parcelId}/address-correction', ['parcels', 'address', 'correction']],
    ['getHTTPStatus', ['get', 'http', 'status']],
  ])('%s → %j', (name, words) => expect(splitWords(name)).toEqual(words));
});

describe(actionOf.name, () => {
  it.each([
    ['adds', 'create'],
    ['created', 'create'],
    ['stopped', 'stop'],
    ['Pausing', 'pause'],
    ['searches', 'read'],
    ['unfollow', 'unfollow'],
    ['unsubscribe', 'unsubscribe'],
    ['disables', 'disable'],
    ['deactivate', 'disable'],
    ['unlock', 'unlock'],
  ])('%s → %s', (word, family) => expect(actionOf(word)).toBe(family));

  it('knows no action in a noun', () => {
    expect(actionOf('customer')).toBeUndefined();
    expect(actionOf('payment')).toBeUndefined();
  });
});

describe(relationOf.name, () => {
  it('tells opposites, neighbours and different actions apart', () => {
    expect(relationOf('create', 'create')).toBe('same');
    expect(relationOf('create', 'delete')).toBe('opposite');
    expect(relationOf('enable', 'disable')).toBe('opposite');
    expect(relationOf('grant', 'revoke')).toBe('opposite');
    expect(relationOf('subscribe', 'unsubscribe')).toBe('opposite');
    expect(relationOf('follow', 'unfollow')).toBe('opposite');
    expect(relationOf('pause', 'resume')).toBe('opposite');
    expect(relationOf('delete', 'cancel')).toBe('neighbour');
    expect(relationOf('delete', 'unfollow')).toBe('neighbour');
    expect(relationOf('refund', 'create')).toBe('different');
  });
});

describe(needAction.name, () => {
  it('reads the main verbs, not those of a when-clause or of nouns', () => {
    expect(needAction('authorise a card amount now and capture it later when the order ships').actions).toEqual(['grant', 'pay']);
    expect(needAction('give me the number of movies directed by Sofia Coppola').actions).toEqual(['read']);
    expect(needAction('give a customer their money back').actions).toEqual(['refund']);
    expect(needAction('list the tracks of an album').actions).toEqual(['read']);
    expect(needAction('put a write-off of broken units on the bus').actions).toEqual(['create']);
  });

  it('reads a phrasal verb as the verb it means', () => {
    expect(needAction('get rid of a recurring reminder for good').actions).toEqual(['delete']);
    expect(needAction('push a reminder back by ten minutes').actions).toEqual(['schedule']);
    expect(needAction('turn the alarm off').actions).toEqual(['disable']);
    expect(needAction("push tomorrow's meeting to Thursday afternoon").actions).toEqual(['update']);
    expect(needAction('move an issue to another repository').actions).toEqual(['transfer']);
    expect(needAction('take a pull request back out of the merge queue').actions).toEqual(['delete']);
  });

  it('reads an object after a verb as no second verb', () => {
    expect(needAction('delete messages').actions).toEqual(['delete']);
    expect(needAction('list issues').actions).toEqual(['read']);
    expect(needAction('list unread messages').actions).toEqual(['read']);
    expect(needAction('turn push notifications off').actions).toEqual(['disable']);
    expect(needAction('log out a user').actions).toEqual([]);
  });

  it('reads what the need says not to do', () => {
    expect(needAction('temporarily stop a cron job from firing without deleting it')).toMatchObject({ actions: ['stop'], avoid: ['delete'] });
    expect(needAction("hold the job but don't cancel it")).toMatchObject({ actions: ['pause', 'reserve'], avoid: ['cancel'] });
    expect(needAction('delete the user instead of archiving it')).toMatchObject({ actions: ['delete'], avoid: ['archive'] });
    expect(needAction('find orders that are not paid and cancel them')).toMatchObject({ actions: ['read', 'cancel'] });
    expect(needAction('not only create the user but also send a welcome email').avoid).toBeUndefined();
  });

  it('keeps the words it says things of, singular', () => {
    expect([...needAction('refund card payments').words]).toEqual(['refund', 'card', 'payment']);
  });
});

describe(operationAction.name, () => {
  it('reads an RPC method, a GraphQL field and an MCP tool by their names', () => {
    expect(operationAction({ method: 'RPC', path: 'billing.payments.v1.PaymentService/RefundPayment', summary: 'Refunds a payment.' })).toEqual({
      action: 'refund',
      named: true,
      objects: ['payment'],
    });
    expect(operationAction({ method: 'MUTATION', path: 'addToCart', summary: null })).toMatchObject({ action: 'create', named: true, objects: ['cart'] });
    expect(operationAction({ method: 'QUERY', path: 'products', summary: null })).toMatchObject({ action: 'read', named: false });
    expect(operationAction({ method: 'TOOL', path: 'escalate_ticket', summary: null })).toMatchObject({ action: 'escalate', objects: ['ticket'] });
  });

  it('reads a REST operation by its summary, else its operationId, else its method', () => {
    expect(operationAction({ method: 'DELETE', path: '/me/following', summary: 'Unfollow Artists or Users' })).toMatchObject({
      action: 'unfollow',
      named: true,
    });
    expect(operationAction({ method: 'POST', path: '/customers', summary: null, operationId: 'registerCustomer' })).toMatchObject({
      action: 'create',
      named: true,
    });
    expect(operationAction({ method: 'POST', path: '/customers', summary: 'Customers', operationId: 'POST_customers' })).toMatchObject({
      action: 'create',
      named: false,
    });
  });

  it('reads an AsyncAPI channel as taking events in or sending a message', () => {
    expect(operationAction({ method: 'SUBSCRIBE', path: 'customer.signup.completed', summary: null }).action).toBe('subscribe');
    expect(operationAction({ method: 'PUBLISH', path: 'greenhouse/{houseId}/valves/{valveId}/set', summary: null }).action).toBe('send');
  });
});

describe(actionFit.name, () => {
  const fit = (need: string, operation: Parameters<typeof operationAction>[0]) => actionFit(needAction(need), operationAction(operation));

  it('counts the same action for an operation and the opposite against it', () => {
    const need = 'pause the delivery of messages to a subscription';
    expect(fit(need, { method: 'RPC', path: 'x.Subscriber/PauseSubscription', summary: null })).toBe(1);
    expect(fit(need, { method: 'RPC', path: 'x.Subscriber/ResumeSubscription', summary: null })).toBe(-1);
    expect(fit(need, { method: 'RPC', path: 'x.Subscriber/DeleteSubscription', summary: null })).toBe(-0.5);
  });

  it('counts an action the need says not to do as an opposite', () => {
    const need = 'stop a cron job from firing without deleting it';
    expect(fit(need, { method: 'TOOL', path: 'delete_job', summary: null })).toBe(-1);
    expect(fit(need, { method: 'TOOL', path: 'pause_job', summary: null })).toBe(0.25);
  });

  it('counts an action guessed from the HTTP method for half, and nothing without a verb in the need', () => {
    expect(fit('remove a customer', { method: 'DELETE', path: '/customers/{id}', summary: null })).toBe(0.5);
    expect(fit('the customer with this email', { method: 'DELETE', path: '/customers/{id}', summary: null })).toBe(0);
  });
});

describe(objectFit.name, () => {
  it('is the share of the name’s objects the need says', () => {
    const need = needAction('refund a card payment');
    expect(objectFit(need, operationAction({ method: 'RPC', path: 'p.Payments/RefundPayment', summary: null }))).toBe(1);
    expect(objectFit(need, operationAction({ method: 'RPC', path: 'p.Payments/ListPaymentMethods', summary: null }))).toBe(0.5);
  });
});
