/** Site paths of the social cards (og:image), 1200×630 PNGs written by the build. */
export const OG_HOME = "/og/home.png";

/**
 * A permalink's card: one per star rating, not per review. A card per review would be 100k images
 * rendered at about 10 ms each at 100k reviews, several minutes of the 60 s build target.
 */
export const ogReviewImage = (rating: number) => `/og/review-${rating}.png`;
