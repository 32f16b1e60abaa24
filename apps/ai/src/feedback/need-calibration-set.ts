/**
 * Labelled need texts for fitting, per embedding model, the similarity at which two needs are
 * paraphrases: the point above which a vote given for one need may count for another.
 *
 * Written by hand for this purpose, independently of the evaluation sets (none of their queries
 * or APIs were looked at), so that a threshold fitted on it can be measured on them fairly. Each
 * domain is an area of the API catalogues of companies (payments, shipping, weather and so on); each of its
 * needs is one thing a developer wants done, in three phrasings as people type them into a search
 * box or ask an assistant: a few keywords, a sentence, and a question or task in other words. An
 * API that answers one phrasing of a need answers the others; the needs of a domain share its
 * vocabulary but ask for different operations or answers.
 *
 * How it is used:
 * - two phrasings of one need are a paraphrase pair (positive: a vote for one counts for the other);
 * - two needs of one domain are hard negatives (a related but different need: it must not count);
 * - needs of different domains are easy negatives;
 * - all the needs together are also the background a query's similarity is measured against
 *   (how near a text's nearest unrelated needs are, for a model that puts everything close).
 */
export const NEED_CALIBRATION_SET: readonly { domain: string; needs: readonly (readonly string[])[] }[] = [
  {
    domain: 'payments',
    needs: [
      [
        'charge a credit card',
        "I need to take a payment from the customer's card when they check out",
        'how can my app bill a shopper for their purchase with a debit or credit card?',
      ],
      [
        'save a card for future charges',
        'store a tokenized card so we can bill the customer again later without asking for the number',
        'how do I keep payment details on file for one-click repeat purchases?',
      ],
      [
        'list payouts to my bank account',
        'I want to see the transfers of my earnings to our business bank account',
        'when does the money from my sales get deposited, and how much was each settlement?',
      ],
      [
        'create a payment link',
        'generate a shareable URL the customer can open to pay me without needing a website',
        'is there a way to send someone a link so they can pay an amount online?',
      ],
      ['accept Apple Pay and Google Pay', 'let customers pay with mobile wallets in our checkout', 'how do we support digital wallet payments on phones?'],
    ],
  },
  {
    domain: 'refunds and disputes',
    needs: [
      [
        'refund a payment',
        'I need to give a customer all of their money back for an order they returned',
        'how do we reverse a charge completely so the buyer is reimbursed?',
      ],
      [
        'partial refund of a charge',
        'return only part of the amount a customer paid, for example for one item of the order',
        'can I send back a portion of a transaction instead of the whole sum?',
      ],
      [
        'check refund status',
        "see whether a refund we issued has reached the customer's account yet",
        'has the money we sent back to the client actually arrived, and if not when will it?',
      ],
      [
        'respond to a chargeback',
        'submit evidence to contest a dispute a cardholder opened with their bank',
        'how do I fight a customer who told their card issuer they never authorized the purchase?',
      ],
      [
        'list refunds issued in a period',
        'get every refund we gave out last month for our finance report',
        'which transactions did we pay back to customers between two dates?',
      ],
    ],
  },
  {
    domain: 'invoicing',
    needs: [
      ['create and send an invoice', 'I want to bill a client by emailing them an itemized invoice', 'how to issue a bill with line items to a customer?'],
      [
        'mark an invoice as paid',
        'record that a customer has settled an invoice so it no longer shows as open',
        'how do I update a bill once the client has paid it by bank transfer?',
      ],
      [
        'overdue invoice reminders',
        'automatically nudge clients who have not paid their bills by the due date',
        'how to chase customers about late payments on outstanding invoices?',
      ],
      [
        'list unpaid invoices',
        'show me all the invoices that are still open and how much is owed on them',
        'which bills have customers not settled yet, and what is our total receivable?',
      ],
      [
        'issue a credit note',
        'I need to cancel part of an invoice by creating a credit memo',
        'how do we correct a bill we already sent that charged the client too much?',
      ],
    ],
  },
  {
    domain: 'subscriptions and recurring billing',
    needs: [
      [
        'create a monthly subscription',
        'sign a customer up for a recurring plan that charges them every month',
        'how do I bill users automatically on a regular schedule for a membership?',
      ],
      [
        'upgrade a plan with proration',
        'move a subscriber to a more expensive tier and charge only the difference for the rest of the period',
        'what do we bill when a customer switches to another plan in the middle of a billing cycle?',
      ],
      [
        'cancel a subscription',
        'stop the recurring charges for a user who wants to end their membership',
        'how can a customer quit their plan so they are no longer billed after this period?',
      ],
      [
        'usage-based billing metering',
        'report how many API calls each customer made so we can charge them per use',
        'how to bill clients by consumption instead of a flat monthly fee?',
      ],
      [
        'retry failed renewal payments',
        'automatically try again when a renewal charge is declined and email the customer to update their card',
        "how do we recover recurring revenue when a subscriber's card has expired?",
      ],
    ],
  },
  {
    domain: 'SMS and telephony',
    needs: [
      ['send an SMS', 'I want to send a text message to a mobile phone number from my backend', 'how can our server text customers on their cell phones?'],
      [
        'receive incoming text messages',
        'handle the replies that users send back to our SMS number',
        'how do we get notified when someone texts our business line?',
      ],
      [
        'buy a phone number',
        'provision a new local virtual number for my app to use',
        'where can I rent a telephone number with a given area code programmatically?',
      ],
      [
        'make an automated voice call',
        'place an outbound phone call that plays a recorded message',
        'how do I ring a customer from code and play them an announcement?',
      ],
      [
        'SMS delivery status',
        'find out whether a text message I sent was actually delivered to the handset',
        'did my text reach the recipient or did the carrier reject it?',
      ],
    ],
  },
  {
    domain: 'email sending',
    needs: [
      [
        'send transactional email',
        'send an order confirmation email to a customer from our application',
        'how do I have my app mail users automatically, like receipts and welcome messages?',
      ],
      [
        'track email bounces and spam complaints',
        'find out which messages bounced or were marked as spam so I stop mailing those addresses',
        'how can I see which of our emails were undeliverable or reported as junk?',
      ],
      [
        'parse inbound email',
        'receive emails sent to our domain and turn them into data our app can process',
        'can incoming mail be forwarded to my server as JSON?',
      ],
      [
        'verify an email address exists',
        'check if an email address is valid and can receive mail before a user signs up',
        'how do I tell whether a mailbox is real and not a disposable or mistyped one?',
      ],
      [
        'reusable email templates',
        'design message layouts with placeholders that get filled in for each recipient',
        "how to manage mail templates with variables like the customer's first name?",
      ],
    ],
  },
  {
    domain: 'push notifications',
    needs: [
      [
        'send a push notification to a phone',
        "deliver a notification to a specific user's mobile app",
        "how do I pop up an alert on someone's iPhone or Android device?",
      ],
      [
        'register a device push token',
        'store the push token of a device when the app is installed so we can reach it later',
        'how do we enroll a new install to receive notifications?',
      ],
      [
        'broadcast a push to a topic',
        'send one notification to all users who follow a topic, like breaking news',
        'how can I alert every app user interested in a subject at once instead of one by one?',
      ],
      [
        'web push notifications in the browser',
        'show notifications to visitors of my website even when the tab is closed',
        'how to alert desktop site visitors through Chrome notifications?',
      ],
      [
        'schedule a push notification',
        "send a notification at a specific time in each user's local timezone",
        'can I queue a mobile alert to go out tomorrow at 9am?',
      ],
    ],
  },
  {
    domain: 'authentication and login',
    needs: [
      [
        'social login with Google',
        'let users sign in to my app with their existing Google or Facebook account',
        'how do I add "log in with" buttons for third-party accounts?',
      ],
      [
        'two-factor authentication one-time code',
        'send a one-time passcode by text or authenticator app to confirm a login',
        'how can I add a second verification step when people sign in?',
      ],
      [
        'passwordless magic link login',
        'email users a link that signs them in without a password',
        'how to let people log in just by clicking something in their inbox?',
      ],
      [
        'enterprise single sign-on with SAML',
        'allow employees of customer companies to log in through their own identity provider like Okta',
        'how do we support corporate SSO for our business clients?',
      ],
      [
        'validate an access token',
        'check that a JWT sent with a request has a valid signature and has not expired',
        'how does my backend know the bearer token in a call is legitimate?',
      ],
    ],
  },
  {
    domain: 'user accounts',
    needs: [
      ['create a user account', 'register a new user with an email and password in our system', 'how do I sign up a person programmatically?'],
      [
        'reset a forgotten password',
        'let a user who forgot their password choose a new one through an emailed link',
        'what is the flow when someone cannot remember their login credentials?',
      ],
      ['update a user profile', "change a user's name, avatar and contact details", 'how can people edit the personal info in their account?'],
      [
        'delete a user account and their data',
        'permanently remove a user and all their personal data on request',
        'how do we honor a GDPR erasure request from a customer?',
      ],
      ['search the user directory', 'find people registered in our system by email or name', 'how can an admin look up who has an account?'],
    ],
  },
  {
    domain: 'permissions and access control',
    needs: [
      [
        'check a user permission',
        'decide whether a given user is allowed to perform an action on a resource',
        'can this person edit this document? how do I ask an authorization service?',
      ],
      ['assign roles to users', 'make a colleague an admin or a viewer in our app', 'how to grant a team member a set of rights?'],
      [
        'create scoped API keys',
        'issue API keys limited to read-only access for integrations',
        'how do we hand out tokens that can only do certain things to third parties?',
      ],
      [
        'audit log of permission changes',
        'record who granted or revoked which permissions and when',
        'where can I see the history of role changes for compliance?',
      ],
    ],
  },
  {
    domain: 'file storage',
    needs: [
      [
        'upload a file to cloud storage',
        'store a user-uploaded file in the cloud from my app',
        'how do I save attachments somewhere durable instead of on my server disk?',
      ],
      [
        'temporary download link for a private file',
        'generate a signed URL that lets someone download a private file for a limited time',
        'how to share a stored object securely with an expiring link?',
      ],
      ['list files in a folder', 'get the names and sizes of all objects under a given path in a bucket', 'what files are in this directory of my storage?'],
      [
        'resumable upload of large files',
        'upload multi-gigabyte files in chunks that can continue after a connection drop',
        'how can users send huge archives without restarting when the network fails?',
      ],
      ['file version history', 'keep previous versions of a file and restore an older one', 'can I roll back a document in storage to how it was yesterday?'],
    ],
  },
  {
    domain: 'image processing',
    needs: [
      ['resize an image', 'make smaller thumbnails of uploaded photos in several dimensions', 'how do I shrink pictures to smaller dimensions on the fly?'],
      [
        'remove an image background',
        'cut out the subject of a product photo and make the background transparent',
        'how to erase the backdrop behind a person in a picture?',
      ],
      ['detect objects in an image', 'tell me what things appear in a photo, like cars, dogs or trees', 'can an API label the contents of a picture?'],
      [
        'moderate images for nudity',
        'flag uploaded pictures that contain adult or violent content',
        'how do we automatically block inappropriate photos users post?',
      ],
      [
        'convert an image format',
        'turn PNG or HEIC photos into compressed WebP or JPEG files',
        'how to change the file type of pictures and reduce their weight?',
      ],
    ],
  },
  {
    domain: 'video',
    needs: [
      [
        'transcode a video',
        'convert uploaded videos into formats and resolutions that play on every device',
        'how do I encode a clip into adaptive streaming renditions?',
      ],
      [
        'live stream video to viewers',
        'broadcast a live video feed to thousands of viewers in real time',
        'how can we go live from a camera and let people watch as it happens?',
      ],
      [
        'extract a thumbnail from a video',
        'grab a still frame from a video file to use as its preview image',
        'how to get a poster picture out of a clip at a certain second?',
      ],
      [
        'host videos with an embeddable player',
        'upload our videos somewhere and put a player for them on our website',
        'where can I store clips and show them on my pages without YouTube?',
      ],
      ['add video conferencing to an app', 'add group video calls to our web app', 'how do we let users meet face to face over webcam inside our product?'],
    ],
  },
  {
    domain: 'maps and geocoding',
    needs: [
      ['geocode an address', 'turn a street location into latitude and longitude', 'where exactly on the globe is this address, as lat/lng?'],
      ['reverse geocoding of coordinates', 'find the address for a GPS position', 'what street and city is at these coordinates?'],
      ['static map image with a marker', 'render a map picture with a pin to embed in an email', 'how do I produce a PNG of a map centered on a location?'],
      ['timezone from coordinates', 'look up which time zone a latitude and longitude falls in', 'what is the local time zone of a given point on the map?'],
      ['elevation at a location', 'get the altitude above sea level for a set of coordinates', 'how high is the terrain at this GPS point?'],
    ],
  },
  {
    domain: 'routing and directions',
    needs: [
      ['driving directions between addresses', 'get turn-by-turn directions from one address to another', 'how do I get from A to B by car, step by step?'],
      [
        'travel time distance matrix',
        'compute travel times between many origins and destinations at once',
        'how long does it take to drive between each of my stores and each customer?',
      ],
      [
        'optimize a route with multiple stops',
        'find the best order to visit twenty addresses with one van',
        'what sequence of stops minimizes the total driving for my drivers?',
      ],
      [
        'isochrone of reachable area',
        'show the area you can reach within 15 minutes of travel from a point',
        'which neighborhoods are within a half-hour drive of our office?',
      ],
      ['public transit directions', 'plan a trip by bus and train between two places', 'which metro and bus connections get me across the city?'],
    ],
  },
  {
    domain: 'weather',
    needs: [
      ['current weather conditions', 'get the temperature and conditions right now for a city', "what's the weather like at this location at the moment?"],
      ['weather forecast for next week', 'get the hourly and daily forecast for the coming days', 'will it rain in Berlin on Saturday?'],
      [
        'historical weather data',
        'retrieve past temperatures and rainfall for a location going back years',
        'what was the weather on a specific date in the past?',
      ],
      ['severe weather alerts', 'be notified of storm, flood and heat warnings for an area', 'are there any official hazard warnings issued for my region?'],
      ['air quality index', 'get pollution levels like PM2.5 and ozone for a city', 'how clean is the air outside today?'],
    ],
  },
  {
    domain: 'translation',
    needs: [
      [
        'translate text between languages',
        'turn a sentence written in English into Spanish',
        'how do I convert user messages into another language automatically?',
      ],
      ['detect the language of text', 'figure out which tongue a piece of writing uses', 'is this review in French, German or something else?'],
      [
        'translate whole documents',
        'translate entire Word or PDF files while keeping their formatting',
        'how to localize a complete file without breaking its layout?',
      ],
      [
        'custom glossary for machine translation',
        'make the machine translation always use our own terms for product names',
        'can I force specific terminology when translating?',
      ],
    ],
  },
  {
    domain: 'speech',
    needs: [
      [
        'text to speech',
        'turn written words into natural-sounding audio a person could hear',
        'how do I make my app read sentences aloud with a realistic voice?',
      ],
      ['transcribe an audio file', 'convert a recorded interview into a written transcript', 'how can I get the words out of an mp3 as text?'],
      [
        'real-time speech recognition',
        'transcribe what a person says live from the microphone while they talk',
        'how to stream audio and receive text as it is being spoken?',
      ],
      [
        'clone a voice',
        'create a synthetic voice that sounds like a specific person from a few samples',
        'can I generate speech that sounds like my own voice?',
      ],
      [
        'identify speakers in a recording',
        'label who is talking when in a meeting recording',
        'how do I separate the different people speaking in an audio file?',
      ],
    ],
  },
  {
    domain: 'documents and OCR',
    needs: [
      ['OCR text from an image', 'read the printed text in a scanned page or photo', 'how do I get machine-readable text out of a picture of a letter?'],
      [
        'parse receipts into fields',
        'pull the vendor, date, total and line items out of a photographed receipt',
        'can an API read expense receipts and give me the amounts as structured data?',
      ],
      ['extract tables from a PDF', 'get the rows and columns of a table inside a PDF report as data', 'how to convert tables in PDF files into spreadsheets?'],
      ['generate a PDF from HTML', 'render an HTML template into a PDF document', 'how do I create PDF files from web pages or templates in my backend?'],
      [
        'merge and split PDF files',
        'combine several PDFs into one or pull out some of their pages',
        'how can I join documents together or cut pages out of a PDF?',
      ],
    ],
  },
  {
    domain: 'e-signature',
    needs: [
      ['send a document for e-signature', 'email a contract to a client so they can sign it electronically', 'how do I get an agreement signed online?'],
      [
        'signature request status',
        'find out whether all parties have signed a contract yet',
        'has the customer signed the agreement we sent, or is it still pending?',
      ],
      [
        'embedded signing in our app',
        'let users sign documents inside our own website without leaving it',
        'how can people put their signature on a form within our product?',
      ],
      [
        'download the signed document with audit trail',
        'get the completed signed PDF plus the certificate showing who signed and when',
        'where is the final executed contract and its proof of signing?',
      ],
    ],
  },
  {
    domain: 'shipping and parcels',
    needs: [
      ['compare shipping rates', 'get prices from several carriers for sending a parcel', 'how much does it cost to ship a 2 kg box to Canada, and with whom?'],
      ['create a shipping label', 'buy postage and print a label for a package', 'how do I generate a carrier label for an outgoing order?'],
      ['track a parcel', 'get the current whereabouts of a shipment from its tracking number', 'where is my package right now?'],
      ['schedule a carrier pickup', 'book a courier to collect parcels from our warehouse', 'how do we get the delivery company to come pick up our boxes?'],
      [
        'customs documents for international shipping',
        'generate commercial invoices and customs declarations for exports',
        'what paperwork do I need to produce to send goods abroad?',
      ],
    ],
  },
  {
    domain: 'inventory',
    needs: [
      ['check stock level of a product', 'see how many pieces of an article are on hand', 'do we still have this item in the warehouse?'],
      ['add received goods to inventory', 'increase stock counts when a supplier delivery arrives', 'how do I record new merchandise that just came in?'],
      ['low stock alert', 'get notified when a product is about to run out', 'how can I know when to reorder before items sell out?'],
      [
        'transfer stock between warehouses',
        'move inventory from one location to another and keep the counts right',
        'how do we record units leaving our east depot for the west one?',
      ],
      [
        'reserve inventory during checkout',
        'hold units aside while a customer completes checkout so they are not oversold',
        'how to prevent selling the same last item to two buyers?',
      ],
    ],
  },
  {
    domain: 'orders and e-commerce',
    needs: [
      [
        'shopping cart API',
        'put items in a basket and work out the total with taxes and discounts',
        'how do I let shoppers collect what they want to buy before paying?',
      ],
      ['get order status', 'look up whether an order is pending, paid, packed or fulfilled', 'what stage is this purchase at in our fulfilment process?'],
      [
        'cancel an order before shipping',
        'stop a purchase from being fulfilled before it leaves the warehouse',
        'how can a customer call off a purchase they just made?',
      ],
      ['customer order history', 'list all past orders a customer has placed', 'what has this shopper bought from us before?'],
      ['apply a discount coupon', 'validate a promo code and take the discount off the order', 'how do I let shoppers redeem voucher codes at checkout?'],
    ],
  },
  {
    domain: 'product catalogue',
    needs: [
      [
        'create a product with variants',
        'add a new product that comes in several sizes and colors',
        'how do I list an item with options like size in our store?',
      ],
      ['bulk import products', 'upload thousands of products from a CSV into the catalog', 'how can we load our whole product list at once?'],
      ['update product prices', 'change the price of many items for a sale', 'how to mark down the cost of products across the catalogue?'],
      ['organize product categories', 'arrange products into a category tree for navigation', 'how do I group items into departments and subcategories?'],
      ['product data from a barcode', 'look up a product name, brand and image by its UPC or EAN', 'what item is this barcode number?'],
    ],
  },
  {
    domain: 'site search',
    needs: [
      ['full-text search over our content', 'index our articles and let users search them by keywords', 'how do I add a search box over my own content?'],
      ['search autocomplete suggestions', 'suggest completions as the user types in the search bar', 'how to show query suggestions while someone is typing?'],
      [
        'faceted search filters',
        'let shoppers narrow results by brand, price range and color with counts',
        'how do I show filter options with the number of matching items?',
      ],
      [
        'semantic vector search',
        'find documents by meaning rather than exact words using embeddings',
        'how can search match "cheap flights" to "low-cost airfare"?',
      ],
      ['searches with no results', 'see what users searched for that returned nothing', 'which search terms are failing on our site?'],
    ],
  },
  {
    domain: 'recommendations',
    needs: [
      ['similar item recommendations', 'show products similar to the one being viewed', 'what else looks like this item that we could suggest?'],
      [
        'personalized recommendations for a user',
        "suggest items based on a user's own history and tastes",
        'how do I give each visitor a feed tailored to them?',
      ],
      [
        'frequently bought together',
        'suggest add-ons that other customers purchased along with this product',
        'which items do buyers usually get at the same time?',
      ],
      ['trending items right now', 'show what is popular across the site at the moment', 'which products are getting the most attention this week?'],
    ],
  },
  {
    domain: 'CRM and contacts',
    needs: [
      ['create a CRM contact', 'add a new lead with name, email and company to our CRM', 'how do I save a prospect into our sales database?'],
      [
        'move a deal through pipeline stages',
        'move a sales opportunity from negotiation to closed won',
        'how can I update where a deal is in our sales funnel?',
      ],
      [
        'log a sales activity',
        'record a phone call or meeting with a customer on their account in the CRM',
        'where do I note that I spoke with this client yesterday?',
      ],
      ['merge duplicate contacts', 'find and combine duplicate people records in the CRM', 'how do we clean up the same customer entered twice?'],
    ],
  },
  {
    domain: 'customer support',
    needs: [
      [
        'create a support ticket',
        'open a new help desk ticket when a customer reports a problem',
        'how do I log a customer complaint so the support team handles it?',
      ],
      ['reply to a ticket and close it', 'answer a customer issue and mark it as solved', 'how does an agent respond to a request and resolve it?'],
      [
        'publish help center articles',
        'publish FAQ pages and a knowledge base customers can read',
        'how can we host self-service answers for common questions?',
      ],
      [
        'customer satisfaction survey after support',
        'ask customers to rate their support experience once the issue is resolved',
        'how do we measure how happy people were with the help they got?',
      ],
      [
        'live chat widget for support',
        'add a chat box on our website so visitors can talk to an agent',
        'how do site visitors message our support staff in real time?',
      ],
    ],
  },
  {
    domain: 'calendar and scheduling',
    needs: [
      [
        'create a calendar event with guests',
        "put a meeting with invitees into a user's agenda",
        "how do I schedule a get-together in someone's Google or Outlook calendar and invite people?",
      ],
      ['check free busy availability', 'find times when all attendees are free', 'when can these five people meet this week?'],
      [
        'appointment booking page',
        'let clients pick a slot and book an appointment with me online',
        'how do customers reserve a time with our staff themselves?',
      ],
      ['sync two calendars', 'keep events in two calendar systems in sync both ways', 'how to mirror my work calendar into my personal one automatically?'],
    ],
  },
  {
    domain: 'HR and payroll',
    needs: [
      ['run payroll for employees', 'pay employees their salaries with taxes withheld', 'how do we process the monthly wage run for staff?'],
      ['employee directory with managers', 'get a list of employees with their department and manager', 'who works here and who reports to whom?'],
      ['time off requests', 'let staff request vacation days and have managers approve them', 'how do employees ask for leave and how is it approved?'],
      ['track working hours with timesheets', 'record the hours each worker clocks in and out', 'how many hours did our hourly staff work this week?'],
      [
        'onboard a new hire',
        'set up a new employee with contract, tax forms and accounts on day one',
        'what steps do we automate when someone joins the company?',
      ],
    ],
  },
  {
    domain: 'accounting and ledger',
    needs: [
      ['post a journal entry', 'record a double-entry transaction in the general ledger', 'how do I book debits and credits in our accounts?'],
      ['profit and loss report', 'generate an income statement for the quarter', 'how much did the company earn after expenses this period?'],
      [
        'reconcile bank transactions with the books',
        'match bank statement lines against our bookkeeping records',
        'how do we check that the books agree with what the bank shows?',
      ],
      [
        'set up a chart of accounts',
        'list and create the ledger accounts we categorize money into',
        'how to set up expense and revenue categories for bookkeeping?',
      ],
      ['record a supplier bill', 'enter a bill from a vendor that we need to pay later', 'how do we track what we owe our suppliers?'],
    ],
  },
  {
    domain: 'open banking',
    needs: [
      [
        'read a bank account balance',
        "read the current balance of a user's bank account with their consent",
        'how much money is in my checking account right now, via an API?',
      ],
      [
        'fetch bank transaction history',
        'fetch the list of past transactions from a connected bank account',
        'how can my budgeting app import card and account spending?',
      ],
      [
        'initiate a bank transfer payment',
        "start a payment directly from the customer's bank account to ours",
        'how do we pull money by account-to-account transfer instead of cards?',
      ],
      ['verify bank account ownership', 'confirm that a bank account number belongs to the person who gave it', 'is this IBAN really owned by our customer?'],
      [
        'validate an IBAN',
        'check an IBAN is correctly formatted and find its bank and BIC',
        'is this international bank account number well formed, and which bank issued it?',
      ],
    ],
  },
  {
    domain: 'currency exchange',
    needs: [
      ['latest exchange rates', 'get the current conversion rate between euros and dollars', 'what is one pound worth in yen today?'],
      [
        'historical exchange rate on a date',
        'find what the USD to EUR rate was on a specific past day',
        'what was the franc worth against the dollar on 1 March 2020?',
      ],
      ['send money abroad', 'transfer funds to a supplier overseas in their local currency', 'how do I pay someone in another country cheaply?'],
      [
        'exchange rate alerts',
        'notify me when the dollar reaches a target rate against the euro',
        'can I get an alert when a currency pair crosses a threshold?',
      ],
    ],
  },
  {
    domain: 'crypto',
    needs: [
      ['bitcoin price today', 'get live prices of cryptocurrencies like bitcoin and ether', 'how much is one BTC worth right now?'],
      ['crypto wallet balance on the blockchain', 'read the token balances of an Ethereum address', 'what coins does this wallet hold?'],
      [
        'send a crypto transaction',
        'broadcast a signed transaction to transfer tokens to another address',
        'how do I move USDC from one wallet to another programmatically?',
      ],
      [
        'NFT metadata by token id',
        'get the name, image and traits of a specific NFT',
        'what does this non-fungible token look like and what are its properties?',
      ],
      ['accept crypto payments', 'let customers pay at checkout with bitcoin', 'how can our shop take cryptocurrency from buyers?'],
    ],
  },
  {
    domain: 'stock market data',
    needs: [
      ['real-time stock quote', 'get the latest trading price of a listed share', 'what is Apple trading at right now?'],
      [
        'historical stock prices',
        'download daily open, high, low and close data for a ticker over years',
        'how did this share price move over the last decade?',
      ],
      [
        'company financial statements',
        'get the income statement, balance sheet and earnings of a listed company',
        "what were this public firm's revenues and profits each quarter?",
      ],
      ['place a stock trade', 'buy or sell shares through a brokerage account from code', 'how can my app submit an order to purchase equities?'],
      [
        'dividend history of a stock',
        'list the dividends a stock has paid and the ex-dividend dates',
        'how much has this company paid out to shareholders per share?',
      ],
    ],
  },
  {
    domain: 'news',
    needs: [
      ['top news headlines', 'get the latest top news stories by country and category', "what are today's biggest headlines?"],
      [
        'search news articles by keyword',
        'find news articles that mention a keyword within a date range',
        'what did the press write about electric cars last month?',
      ],
      [
        'extract article text from a URL',
        'get the clean main text and author of a news page without ads',
        'how do I scrape just the story content from a link?',
      ],
      ['list news sources', 'get the publishers and outlets available in a news feed', 'which newspapers and sites can I pull stories from?'],
    ],
  },
  {
    domain: 'sports data',
    needs: [
      ['live match scores', 'get soccer results as they change during ongoing matches', 'what is the score of the game happening now?'],
      ['fixtures schedule for a league', 'list the upcoming matches of a league with dates and kickoff times', 'when does my team play next?'],
      ['player season statistics', 'get how many goals, assists and minutes a footballer has this season', 'how well has this striker performed this year?'],
      ['league standings table', 'get how the clubs of a league are ranked right now with their points', 'who is top of the table?'],
      ['betting odds for games', 'get the prices bookmakers offer for upcoming matches', 'what are the odds on the home team winning tonight?'],
    ],
  },
  {
    domain: 'flights',
    needs: [
      [
        'search cheap flights',
        'find flight offers and prices between two airports on a date',
        'how much does it cost to fly from Paris to New York next month?',
      ],
      ['check flight status', 'check whether a flight is on time, delayed or cancelled', 'has flight LH400 landed yet?'],
      ['book a flight ticket', 'reserve a seat and issue an airline ticket for a passenger', 'how do I complete a plane ticket purchase through an API?'],
      ['airport information by code', 'get the names, IATA codes, locations and terminals of airports', 'what airport has the code ORD and where is it?'],
    ],
  },
  {
    domain: 'hotels',
    needs: [
      [
        'hotel availability and prices',
        'find rooms available in a city for given dates with nightly rates',
        'which hotels in Rome have a room free next weekend and how much?',
      ],
      ['book a hotel room', 'make a reservation at a hotel for a guest', 'how do I confirm accommodation for a traveller?'],
      [
        'cancel a hotel reservation',
        'withdraw a room booking and find out what penalty applies',
        'how do we undo an accommodation reservation for a guest who is no longer travelling?',
      ],
      [
        'hotel reviews and photos',
        'get guest ratings, reviews and pictures of a property',
        'what do visitors say about this hotel and what does it look like?',
      ],
    ],
  },
  {
    domain: 'ride-hailing',
    needs: [
      ['request a ride', 'book a car to take a passenger from their location to a destination', 'how can my app call a taxi for a user?'],
      ['ride fare estimate', 'estimate the price of a trip before ordering a car', 'how much would a cab ride to the airport cost?'],
      ['driver location and ETA', 'see where the assigned driver is and when they will arrive', 'how far away is my car?'],
      [
        'cancel a ride request',
        'call off a trip that was ordered before the chauffeur shows up',
        'how does the rider back out of a pickup they no longer need?',
      ],
    ],
  },
  {
    domain: 'food delivery',
    needs: [
      ['restaurant menu with prices', 'get the dishes a restaurant offers and what each one costs', 'what can I order from this place and how much is it?'],
      ['place a food delivery order', 'order meals from a restaurant to be delivered to an address', 'how do I get dinner brought to my door through an app?'],
      ['track the delivery courier', 'show where the courier bringing the food is on the way', 'when will my takeaway arrive?'],
      ['restaurants that deliver to an address', 'list the restaurants that deliver to a given location', 'which eateries can bring food to my house?'],
    ],
  },
  {
    domain: 'healthcare',
    needs: [
      [
        'patient medical record FHIR',
        "read a patient's medical history from the hospital's electronic health records",
        "how do I access a person's clinical chart from our EHR?",
      ],
      ['drug interaction check', 'check whether two medicines are unsafe to combine', 'can someone on warfarin safely take ibuprofen?'],
      ['patient lab results', "retrieve a patient's blood work and other pathology values", "where do I get the outcomes of someone's laboratory tests?"],
      ['ICD-10 diagnosis code lookup', 'find the classification code for a medical condition', 'which ICD code corresponds to type 2 diabetes?'],
      [
        'send an electronic prescription',
        'send a prescription from the doctor to a pharmacy electronically',
        'how does a clinician transmit a medication order to the drugstore?',
      ],
    ],
  },
  {
    domain: 'insurance',
    needs: [
      ['get an insurance quote', 'calculate the premium for a car insurance policy from driver details', 'how much would it cost to insure this vehicle?'],
      ['file an insurance claim', 'submit a claim for damages with photos and a description', 'how does a policyholder report an accident to get reimbursed?'],
      ['insurance claim status', 'check the progress of a claim that was already filed', 'has my insurer approved or paid my claim yet?'],
      ['certificate of insurance', 'get a policy document or certificate of insurance for a customer', 'how do I download evidence that someone is covered?'],
      [
        'embedded insurance at checkout',
        'offer travel or product protection as an add-on when customers buy',
        'how can we sell coverage along with our products?',
      ],
    ],
  },
  {
    domain: 'real estate',
    needs: [
      ['property listings search', 'find homes for sale in a city filtered by price and bedrooms', 'which houses are on the market near me under 500k?'],
      ['home value estimate', 'get an automated valuation of what a property is worth today', 'how much could I sell my house for?'],
      ['property sales history', 'get past sale prices and ownership records for an address', 'when was this house last sold and for how much?'],
      ['rental price estimate', 'estimate the monthly rent a property could get', 'what rent should I charge for a two-bedroom flat here?'],
      ['current mortgage interest rates', "get today's interest rates for house loans", 'what would the interest be on a 30-year fixed loan?'],
    ],
  },
  {
    domain: 'vehicles',
    needs: [
      ['decode a VIN', 'get make, model, year and engine from a vehicle identification number', 'what car does this chassis number belong to?'],
      ['license plate lookup', 'identify a vehicle from its registration plate', 'which car model has this number plate?'],
      [
        'vehicle history report',
        'check past accidents, owners and mileage of a used car',
        'has this second-hand car been crashed or had its odometer rolled back?',
      ],
      ['used car market value', 'estimate the trade-in price of a used vehicle', 'what is my 2016 Golf worth?'],
      ['vehicle safety recalls', 'check for open manufacturer safety recalls on a car', 'is my model affected by any defect campaign?'],
    ],
  },
  {
    domain: 'IoT devices',
    needs: [
      ['ingest device telemetry', 'collect the sensor readings sent by thousands of devices', 'how do I receive temperature data from my connected gadgets?'],
      ['send a command to a device', 'tell a remote device to switch on or change its settings', 'how can I remotely turn off a smart plug?'],
      ['provision devices in a registry', 'register new devices securely and give each one its credentials', 'how do we enroll hardware units in our fleet?'],
      ['firmware over-the-air update', 'push a new firmware version to devices in the field', 'how do we upgrade the software on deployed sensors remotely?'],
    ],
  },
  {
    domain: 'monitoring and alerting',
    needs: [
      ['website uptime monitoring', 'check every minute that our website responds', 'how will I know if my site goes down?'],
      ['custom application metrics', 'send counters and latency numbers from our service to dashboards', 'how do we chart request rates and response times?'],
      [
        'on-call paging for incidents',
        'page the engineer on duty by phone when something breaks',
        'who gets woken up at night when production fails, and how?',
      ],
      ['public status page', 'show customers the current status of our services and past incidents', 'where can users see whether we are having an outage?'],
    ],
  },
  {
    domain: 'logging',
    needs: [
      [
        'centralized log collection',
        'ship application logs from all our servers to one place',
        'how do I gather the logs of my containers in a single service?',
      ],
      [
        'search application logs',
        'query everything our services printed for a request id or an error message',
        'how can I find every log line mentioning this failed order?',
      ],
      [
        'archive old logs cheaply',
        'move logs older than 30 days to cheap storage and delete them later',
        'how do we keep logs for a year without paying much?',
      ],
      [
        'error tracking with stack traces',
        'capture exceptions from our app with stack traces and group them',
        'which crashes are users hitting and where in the code?',
      ],
    ],
  },
  {
    domain: 'CI/CD',
    needs: [
      [
        'trigger a build pipeline',
        'run continuous integration automatically whenever someone pushes commits',
        'how do I kick off the tests and build for a branch?',
      ],
      ['get build status', 'find out if the most recent CI run succeeded', 'is the build green on main?'],
      ['deploy to production', 'release a new version of our app to the production servers', 'how do we ship the latest code to live?'],
      ['roll back a deployment', 'revert production to the previous release after a bad deploy', 'how do I undo the last release quickly?'],
      ['download build artifacts', 'fetch the binaries produced by a pipeline run', 'where can I get the compiled output of a build job?'],
    ],
  },
  {
    domain: 'source code repositories',
    needs: [
      ['create a git repository', 'set up a new version-controlled codebase for a project', 'how do I make a fresh repo for our code through the API?'],
      ['open a pull request', 'propose merging a feature branch into main for review', 'how to submit my changes for teammates to review and merge?'],
      ['list commits of a branch', 'get the commit history of a branch with authors and messages', 'who changed what in this repo recently?'],
      [
        'read a file from a repository',
        'get the content of a file at a given branch or commit',
        'how can I fetch a source file from the repository without cloning it?',
      ],
      ['open an issue in a repository', 'file a bug report in the issue tracker of a code repo', 'how do I create a GitHub issue from a script?'],
    ],
  },
  {
    domain: 'cloud infrastructure',
    needs: [
      ['launch a virtual machine', 'start a new cloud server with a given CPU and memory', 'how do I spin up a VM programmatically?'],
      ['autoscale servers with traffic', 'add or remove servers automatically based on load', 'how can capacity grow when traffic spikes?'],
      ['snapshot a disk for backup', 'capture a point-in-time copy of a server volume to restore later', "how do we back up a machine's volume?"],
      ['cloud cost breakdown', 'see how much we spend on each cloud service per month', 'why is our hosting bill so high and which resources cost most?'],
      [
        'create a Kubernetes cluster',
        'provision a managed K8s environment for our containers',
        'how do I get a container orchestration cluster running in the cloud?',
      ],
    ],
  },
  {
    domain: 'DNS and domains',
    needs: [
      ['domain name availability', 'find out whether nobody has registered a website name yet', 'is example.shop still available to buy?'],
      ['add a DNS record', 'create an A or CNAME entry in the zone for a subdomain', 'how do I point my subdomain at a server?'],
      ['WHOIS lookup for a domain', 'find out who the registrant of a website name is and when the registration ends', 'who registered this website address?'],
      ['DNS propagation check', 'see whether a DNS change is visible worldwide', 'have my nameserver updates spread to all resolvers yet?'],
    ],
  },
  {
    domain: 'certificates and security scanning',
    needs: [
      ['issue a TLS certificate', 'get an SSL certificate for my domain automatically', 'how do I enable HTTPS with a free certificate?'],
      ['SSL certificate expiry check', 'monitor when the certificates of my sites expire', 'when does the HTTPS certificate on this host run out?'],
      ['website vulnerability scan', 'scan our web app for security holes like XSS and SQL injection', 'is our site vulnerable to common attacks?'],
      ['scan dependencies for CVEs', 'find known vulnerabilities in the open-source libraries we use', 'do any of our npm packages have security advisories?'],
      ['breached password check', 'check whether a password has appeared in known data leaks', 'has this credential been exposed in a hack?'],
    ],
  },
  {
    domain: 'fraud detection',
    needs: [
      ['transaction fraud score', 'score how risky a payment is before approving it', 'is this card order likely fraudulent?'],
      ['IP proxy and VPN detection', 'detect if a visitor is hiding behind a VPN, proxy or Tor', 'is this IP address anonymized?'],
      ['bot detection on forms', 'stop automated scripts from creating fake signups', 'how do I tell humans apart from bots on my forms?'],
      [
        'browser and device fingerprinting',
        'recognize the same browser or phone across visits to spot multi-accounting',
        'how can we identify a returning device even without cookies?',
      ],
      ['account takeover detection', "spot logins that look like someone stole a user's credentials", 'how to flag suspicious sign-ins from unusual places?'],
    ],
  },
  {
    domain: 'KYC and identity verification',
    needs: [
      ['verify an ID document', 'check that a passport or driving licence photo is genuine', 'is this identity card authentic and what data is on it?'],
      [
        'selfie liveness and face match',
        'confirm the person holding the ID is live and matches its photo',
        'how do I make sure the user is really the one in the passport picture?',
      ],
      ['sanctions and PEP screening', 'screen a customer name against sanctions and politically exposed persons lists', 'is this person on any watchlist?'],
      ['online age verification', 'confirm a user is over 18 before selling them alcohol', 'how can we prove a customer is an adult?'],
    ],
  },
  {
    domain: 'address validation',
    needs: [
      ['validate a postal address', 'check that a shipping address exists and correct its format', 'is this delivery address real and properly written?'],
      ['address autocomplete in forms', 'suggest full addresses as the user types in a form', 'how do I fill in the address field after a few letters?'],
      ['postcode to town lookup', 'list the streets and town for a postal code', 'which city does ZIP 10001 belong to?'],
      [
        'international address formatting',
        "format addresses correctly for each country's postal conventions",
        'in what order should the lines of a Japanese address go?',
      ],
    ],
  },
  {
    domain: 'company data',
    needs: [
      [
        'company lookup by registration number',
        "get a company's legal name, address and status from the business register",
        'is this firm still active according to the official registry?',
      ],
      [
        'enrich a company from its domain',
        'find the industry, size and location of a company from its website domain',
        'what business is behind acme.com and how many employees does it have?',
      ],
      ['company directors and officers', 'list the board members and officers of a company', 'who runs this corporation on paper?'],
      ['corporate hierarchy of parent and subsidiaries', 'find the parent company and subsidiaries of a business', 'which group does this company belong to?'],
    ],
  },
  {
    domain: 'tax',
    needs: [
      ['sales tax calculation', 'calculate the right sales tax for an order based on the ship-to address', 'how much tax do I add to a purchase in Texas?'],
      ['validate a VAT number', 'confirm that an EU VAT identification number exists and is active', "is this customer's VAT ID registered?"],
      ['file 1099 tax forms', 'generate and file year-end tax forms for contractors', 'how do we send 1099s to the freelancers we paid?'],
      ['sales tax filing and remittance', 'file and pay the sales tax we collected to each state automatically', 'how do we submit our sales tax returns?'],
    ],
  },
  {
    domain: 'social media',
    needs: [
      [
        'schedule a social media post',
        'publish posts to several social networks at a planned time',
        'how can I queue up tweets and Instagram posts for next week?',
      ],
      ['monitor brand mentions', 'track what people say about our brand on social media', 'who is talking about our company online?'],
      ['social follower analytics', 'get audience size and engagement numbers for our profiles', 'how many likes and shares did our posts get?'],
      ['fetch public posts of a user', 'read the latest public content a person published on a social network', 'what has this account posted lately?'],
    ],
  },
  {
    domain: 'product analytics',
    needs: [
      ['track user events', 'record actions like registration and purchase from our app', 'how do I capture what users do in the product?'],
      ['conversion funnel analysis', 'see where users drop off between signup steps', 'how many visitors make it from cart to payment?'],
      ['user retention cohorts', 'measure how many new users come back after a week', 'do customers keep using the app a month after joining?'],
      ['export raw analytics events', 'copy every tracked event into our data warehouse', 'how can we get the raw clickstream into BigQuery?'],
    ],
  },
  {
    domain: 'feature flags and experiments',
    needs: [
      ['toggle a feature flag', 'enable or disable functionality without redeploying', 'how do I switch off new functionality instantly in production?'],
      ['gradual percentage rollout', 'release a feature to 10 percent of users first', 'how to expose a change to a small share of people then increase it?'],
      ['target features by user attributes', 'enable a feature only for beta customers in Germany', 'how can I show something just to a specific segment?'],
      [
        'A/B test results',
        'run an experiment with two variants and see which converts better',
        'is version B of the landing page statistically better than A?',
      ],
    ],
  },
  {
    domain: 'chat and messaging apps',
    needs: [
      [
        'post a message to a team channel',
        'send a message to a Slack channel from our service',
        "how do I notify my team's chat room when a big sale happens?",
      ],
      [
        'chat bot with slash commands',
        'build a bot that answers commands typed in a workspace chat',
        'how can colleagues type /lunch and get a reply from our bot?',
      ],
      ['send WhatsApp business messages', 'send order updates to customers on WhatsApp', 'how can we message clients on their favorite messenger app?'],
      [
        'in-app chat between users',
        'add one-to-one and group chat between users of our app',
        'how do buyers and sellers message each other inside our marketplace?',
      ],
    ],
  },
  {
    domain: 'webhooks',
    needs: [
      ['register a webhook endpoint', 'subscribe a URL to receive events when something changes', 'how do I get called back when an order is created?'],
      ['verify a webhook signature', 'check that an incoming webhook really came from the provider', 'how do I make sure a callback request was not forged?'],
      ['retry failed webhook deliveries', 'resend events that our endpoint failed to accept', 'what happens if my server was down when the event was sent?'],
      [
        'outbound webhooks as a service',
        "deliver events from our platform to our customers' endpoints reliably",
        'how can we offer webhooks to our own users without building it?',
      ],
    ],
  },
  {
    domain: 'music',
    needs: [
      ['search for songs', 'find tracks by title or artist', 'which songs match "yellow" by Coldplay?'],
      ['create a playlist', "add songs to a user's playlist", 'how do I build a collection of tracks for someone?'],
      ['get song lyrics', 'show the words sung in a track', 'where can I find the text of this song to display while it plays?'],
      ['identify a song from audio', 'recognize which song is playing from a short recording', 'what is this tune I hear?'],
    ],
  },
  {
    domain: 'movies and TV',
    needs: [
      ['movie details and cast', 'get the plot, cast and release year of a film', 'who starred in this movie and what is it about?'],
      ['where to stream a movie', 'find which streaming services offer a film in my country', 'can I watch this title on Netflix or elsewhere?'],
      ['TV episode schedule', 'get the broadcast dates of the coming installments of a series', 'when is the next episode of this show on?'],
      ['movie ratings and reviews', 'get critic scores and audience ratings for films', 'is this film well reviewed?'],
    ],
  },
  {
    domain: 'games',
    needs: [
      ['game high score leaderboard', 'keep the best results of players in our game and rank them', 'how do I show the top players of the week?'],
      ['multiplayer matchmaking by skill', 'pair players of similar skill into matches', 'how does our game put people together for an online round?'],
      ['video game prices', 'find current prices and discounts for PC games across stores', 'where is this game cheapest right now?'],
      [
        'cloud save game progress',
        "store a player's saved progress so they can continue on another device",
        'how can gamers resume where they left off on a new console?',
      ],
    ],
  },
  {
    domain: 'education',
    needs: [
      ['enroll a student in a course', 'register a learner in a class on our learning platform', 'how do I sign a pupil up for a course?'],
      ['get student grades', 'read the marks a class earned on assignments and exams', 'how did each pupil score in this course?'],
      ['create an online quiz', 'build an online quiz with multiple-choice questions', 'how do teachers make tests that students take on the web?'],
      ['course progress tracking', 'see which lessons a student has completed', 'how far along is each learner in the course?'],
    ],
  },
  {
    domain: 'government and open data',
    needs: [
      ['public holidays by country', 'get the dates of official days off in a country for a year', 'is next Monday a bank holiday in the UK?'],
      ['census population statistics', 'get how many inhabitants a region has and their demographics', 'how many people live in this county, by age?'],
      [
        'search legislation and laws',
        'look through the full text of statutes and official regulations',
        'which French act governs the protection of personal data?',
      ],
      ['crime statistics by area', 'get the number of offences reported in a neighborhood', 'how safe is this area according to police data?'],
    ],
  },
  {
    domain: 'energy',
    needs: [
      ['hourly electricity prices', 'get the wholesale cost of power for each hour of the day', 'when is electricity cheapest today?'],
      ['grid carbon intensity', 'find how much CO2 the power grid emits per kWh right now', 'how green is the electricity in my region at the moment?'],
      ['EV charging stations nearby', 'find electric vehicle chargers near a location with their plug types', 'where can I charge my car nearby?'],
      ['smart meter consumption', "read a household's energy usage from its smart meter", 'how many kilowatt-hours did this home use yesterday?'],
      ['solar production forecast', 'predict how much power rooftop panels will generate', 'how much energy will my PV system make tomorrow?'],
    ],
  },
  {
    domain: 'agriculture',
    needs: [
      ['crop health from satellite imagery', 'monitor the health of crops in my fields from satellite images', 'which parts of my farm have stressed plants?'],
      ['soil data for a field', 'get the earth type, pH and moisture of a field', 'what is the soil like at this location?'],
      ['commodity crop prices', 'get market quotes for wheat, corn and soybeans', 'what is a bushel of corn selling for?'],
      ['livestock tracking with collars', 'follow where cattle are and whether they are healthy using GPS tags', 'where is my herd and are any animals sick?'],
    ],
  },
];
