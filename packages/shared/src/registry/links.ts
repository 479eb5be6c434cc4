/** Media type of the RFC 9727 API catalog: a linkset, with the profile RFC 9727 defines for it. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';

/**
 * The Link header every response carries, static or dynamic: two hops lead an agent to everything
 * else (llms.txt for reading, the API catalog for the machine interfaces). Relative references resolve
 * against the request URL, so the same value is right for any host the service answers on.
 */
export const DISCOVERY_LINK =
  '</llms.txt>; rel="describedby"; type="text/markdown", ' +
  '</.well-known/api-catalog>; rel="api-catalog"; type="application/linkset+json"';
