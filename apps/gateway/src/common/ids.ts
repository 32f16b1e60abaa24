/** An id the database makes (`gen_random_uuid()`): anything else names nothing, and is a 404 rather than a query error. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
