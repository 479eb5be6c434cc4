/** Site paths of the social cards (og:image), 1200×630 PNGs written by the build. */
export const OG_HOME = "/og/home.png";

/** A star rating's card, for reviews without a card of their own. */
export const ogReviewImage = (rating: number) => `/og/review-${rating}.png`;

/**
 * How many of the newest reviews get a card of their own (those most shared: a new review, by its
 * author or the business). A card costs tens of milliseconds to render, so one per review would make
 * a first build at 100k reviews take far over its 60 s target (docs/architecture.md); the rest use
 * their rating's card.
 */
export const OWN_CARDS = 200;

/** The card of the review at `position` (newest first): its own among the newest, else its rating's. */
export const ogPermalinkImage = (review: { id: string; rating: number }, position: number): string =>
  position < OWN_CARDS ? `/og/reviews/${review.id}.png` : ogReviewImage(review.rating);
