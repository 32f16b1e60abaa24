import { eventIntent, scheduleIntent } from './query-intent.js';

describe(eventIntent.name, () => {
  it.each([
    ['tell me when a new customer registers'],
    ['notify me when a parcel ships'],
    ['let me know as soon as stock runs low'],
    ['alert me if a payment fails'],
    ['I want to react to failed payments'],
    ['get notified of new orders'],
    ['subscribe to order updates'],
    ['listen for sensor readings'],
    ['webhook when an invoice is paid'],
    ['stream of trade events'],
    ['whenever a user signs up'],
    ['Notify me as soon as someone has signed up for an account'],
    ['let me know the moment a package has been delivered, with proof'],
    ['alert a shopper when a product they watch gets cheaper'],
    ['react when a customer deletes their account'],
    ['event when a product is completely out of stock'],
    ["push notification when a cardholder's bank reverses a charge"],
    ['subscribe to refunds as they complete'],
    ['stream temperature and humidity measurements from the greenhouse as they are taken'],
    ['notify my app when someone mentions me in chat'],
    ['receive new chat messages of a room in real time'],
    ['know right away when a colleague goes online or offline'],
    ['live feed of readings from one field device as they come in'],
    ['keep me posted on flight delays'],
    ['email us about new support tickets'],
    ['consume order events from kafka'],
    ['real-time stock prices'],
    ['I need to know the moment a build fails'],
    ['every time a customer leaves a review'],
    ['handle incoming webhooks from the payment provider'],
    ['I’d like to get alerts when my server goes down'],
    ['watch for changes to a file'],
    ['find me an API that notifies me when a parcel ships'],
    ['is there a service that lets us know when a domain expires'],
    ['send me an email when a new lead comes in'],
  ])('should see an event intent in %p', (query) => {
    expect(eventIntent(query)).toBe(true);
  });

  it.each([
    ['when was this film released'],
    // The caller sends: the notification is theirs to deliver, not an event to catch.
    ["send a notification to a user's phone"],
    ['send an SMS'],
    ['list new customers'],
    ['how do I register a customer'],
    // Managing a webhook is a REST call (`POST /webhooks`), not an event to catch.
    ['create a webhook subscription'],
    ['I want to register a webhook for new orders'],
    ['push a message to a queue'],
    ['publish an event to a topic'],
    ['sign up a new customer from our registration form'],
    // A when-clause says when to act, not what to be told.
    ['authorise a card amount now and capture it later when the order ships'],
    ['send an SMS when a parcel ships'],
    ['subscribe a user to a newsletter'],
    ['subscribe to a premium plan'],
    ['cancel a subscription'],
    ['listen to a podcast'],
    ['stream a movie'],
    ['live stream a concert'],
    ['upload a stream of bytes'],
    ['list upcoming events'],
    ['create a calendar event'],
    ['get calendar events for next week'],
    ['tell me about the weather in Paris'],
    ['reply as soon as possible'],
    ['convert between each time zone'],
    ["what's the price at the moment"],
    ['warn users if their password is weak'],
    ['real-time translation of speech'],
    ['receive a payment by card'],
    ['get software updates for a device'],
    ['manage notification preferences'],
    ['which SKUs are under their reorder point right now'],
    ['send an email to every new lead'],
    ['an API that sends messages to our customers'],
  ])('should see no event intent in %p', (query) => {
    expect(eventIntent(query)).toBe(false);
  });

  it('should see an event that merely names a subscription, not one that manages it', () => {
    expect(eventIntent('tell me when users update their subscriptions')).toBe(true);
    expect(eventIntent('update their subscriptions when they move')).toBe(false);
  });
});

describe(scheduleIntent.name, () => {
  it.each([
    ['run the sales report every night at 2am'],
    ['send the digest daily'],
    ['back up the database nightly at 2am'],
    ['retry this task after five minutes'],
    ['call my endpoint at a set hour'],
    ['deliver the message after a delay'],
    ['trigger a build every 15 minutes'],
    ['remind the customer 2 days later'],
    ['back up the database once a week'],
    ['run it on a cron'],
  ])('says when: %s', (query) => expect(scheduleIntent(query)).toBe(true));

  it.each([
    ['tell me every time an order ships'],
    ['list the jobs of a pipeline'],
    ['at the moment, which orders are open'],
    ['what are the daily rate limits'],
    ['temporarily stop a cron job from firing'],
    ["hold a job's schedule during a migration"],
    ['decades of daily temperature for one farm'],
    ['hotel availability and nightly prices in a city'],
    ['count monthly active users'],
    ['what is the weather tomorrow'],
    ['movies playing tonight'],
    ["each month's invoices"],
    ['revenue in 30 days'],
    ['create a customer'],
    ['what time is it in Tokyo'],
  ])('does not: %s', (query) => expect(scheduleIntent(query)).toBe(false));
});
