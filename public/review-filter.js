// Progressive enhancement of the review browser. The static pages filter by one thing at a time
// with plain links; when the sidecar answers /api/reviews/search on this origin, this adds a form
// that combines rating, technician, service, area, topic and words, with each option's count for the
// current selection (the API's facet counts). Without the API (a plain CDN) it does nothing.
(() => {
  const root = document.getElementById("review-browser");
  const mount = document.getElementById("review-search");
  const list = document.getElementById("review-list");
  if (!root || !mount || !list || !window.fetch || !window.URLSearchParams) return;
  const api = root.dataset.searchApi || "/api/reviews/search";
  const businessName = root.dataset.businessName || "";
  const pager = document.getElementById("review-pager");
  const summary = document.getElementById("review-summary");
  const heading = root.querySelector("h1");
  const staticHeading = heading ? heading.innerHTML : "";
  const reduceMotion = window.matchMedia?.("(prefers-reduced-motion: reduce)");
  const FILTERS = ["rating", "technician", "service", "area", "topic"];
  const FIELDS = [...FILTERS, "query", "sort"];
  const API_NAMES = {
    rating: "rating",
    technician: "mentions_technician",
    service: "mentions_service",
    area: "area",
    topic: "topic",
    query: "query",
    sort: "sort",
  };
  const MONTHS = "January February March April May June July August September October November December".split(" ");
  const METHODS = {
    job_record: "matched to a job record",
    invoice: "matched to an invoice",
    invitation: "invited after the job",
  };

  // Element helper: text only ever goes through textContent, never innerHTML.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  }

  // Same structure and classes as reviewArticleHtml (src/site/render/review-article.ts), heading h2.
  function paragraphs(text) {
    return text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter((p) => p.length > 0)
      .map((p) => el("p", null, p));
  }
  // "2026-11-03" -> "November 3, 2026", as src/site/home/dates.ts writes it.
  function time(date) {
    const [year, month, day] = date.split("-");
    return el("time", { datetime: date }, `${MONTHS[Number(month) - 1]} ${Number(day)}, ${year}`);
  }
  function article(review) {
    const stars = "★".repeat(review.rating) + "☆".repeat(5 - review.rating);
    const author = review.author.name + (review.author.locality ? `, ${review.author.locality}` : "");
    const method = review.verification.method;
    const verified = el(
      "a",
      { class: "verified", href: `/verified/#${method.replace("_", "-")}` },
      `Verified: ${METHODS[method] || method}`,
    );
    const meta = el("p", { class: "meta" }, `${author} · `, time(review.date), " · ", verified);
    if (review.technicians.length > 0) meta.append(` · ${review.technicians.join(", ")}`);
    const node = el(
      "article",
      { class: "review", id: `review-${review.id}` },
      el(
        "h2",
        null,
        el("span", { class: "stars", "aria-label": `${review.rating} out of 5 stars` }, stars),
        " ",
        el(
          "a",
          { href: `/reviews/${encodeURIComponent(review.id)}/` },
          review.title || `Review by ${review.author.name}`,
        ),
      ),
      meta,
      ...paragraphs(review.text || ""),
    );
    if (review.response) {
      const head = el("p", { class: "meta" }, `Response from ${businessName}, `, time(review.response.date));
      node.append(el("blockquote", { class: "reply" }, head, ...paragraphs(review.response.text)));
    }
    return node;
  }

  // Options come from the static filter bar, so the catalogue lives in one place: the build.
  function options(kind) {
    const links = document.querySelectorAll(`#review-filters a[data-filter-kind="${kind}"]`);
    return Array.from(links, (a) => [a.dataset.filterValue, a.dataset.filterLabel]);
  }
  function select(name, label, choices, any = true) {
    const id = `review-filter-${name}`;
    const field = el("select", { id, name }, ...(any ? [el("option", { value: "" }, "Any")] : []));
    for (const [value, text] of choices) field.append(el("option", { value, "data-label": text }, text));
    return el("div", { class: "field" }, el("label", { for: id }, label), field);
  }
  const TITLES = { rating: "Rating", technician: "Technician", service: "Service", area: "Area", topic: "Topic" };
  // A kind without options (no insights topics) gets no field.
  const filterFields = FILTERS.filter((name) => options(name).length > 0).map((name) =>
    select(name, TITLES[name], options(name)),
  );

  const form = el(
    "form",
    { id: "review-search-form", role: "search", "aria-label": "Search reviews" },
    ...filterFields,
    select(
      "sort",
      "Order",
      [
        ["newest", "Newest first"],
        ["oldest", "Oldest first"],
        ["highest", "Highest rated"],
        ["lowest", "Lowest rated"],
      ],
      false,
    ),
    el(
      "div",
      { class: "field" },
      el("label", { for: "review-filter-query" }, "Words"),
      el("input", { id: "review-filter-query", name: "query", type: "search", maxlength: "200", autocomplete: "off" }),
    ),
    el("div", { class: "actions" }, el("button", { type: "submit" }, "Search"), " "),
  );
  const reset = el("button", { type: "button", id: "review-reset", hidden: "" }, "Show this page again");
  form.lastChild.append(reset);
  const status = el("p", { id: "review-status", role: "status", "aria-live": "polite" });
  const more = el("button", { type: "button", id: "review-more", hidden: "" }, "More results");
  const staticNodes = Array.from(list.childNodes);
  let cursor = null;
  let controller = null;

  function values() {
    const data = new FormData(form);
    const picked = {};
    for (const name of FIELDS) {
      const value = String(data.get(name) || "").trim();
      // Newest first is the static listings' order: choosing it alone is no search.
      if (value && !(name === "sort" && value === "newest")) picked[name] = value;
    }
    return picked;
  }
  function describe(picked) {
    const parts = [];
    for (const name of [...FILTERS, "sort"]) {
      const field = form.elements.namedItem(name);
      if (picked[name]) parts.push(field.options[field.selectedIndex].dataset.label || field.value);
    }
    if (picked.query) parts.push(`“${picked.query}”`);
    return parts.join(", ");
  }
  function apiParams(picked) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(picked)) params.set(API_NAMES[name], value);
    return params;
  }
  // Each option's count is what choosing it would match, the other fields kept (the API's facets).
  function showCounts(facets) {
    for (const name of FILTERS) {
      const field = form.elements.namedItem(name);
      if (!field || !facets[name]) continue;
      for (const option of field.options) {
        if (option.value) option.textContent = `${option.dataset.label} (${facets[name][option.value] || 0})`;
      }
    }
    root.dataset.counts = "selection";
  }
  // Counting requests are not aborted (a cheap answer, cached by the API); a newer request or
  // search makes an older answer stale, and a stale one is dropped.
  let countsAsked = 0;
  async function refreshCounts() {
    const ask = ++countsAsked;
    const params = apiParams(values());
    params.set("limit", "1");
    params.set("facets", "true");
    try {
      const response = await fetch(`${api}?${params}`, { headers: { accept: "application/json" } });
      const body = response.ok ? await response.json() : null;
      if (body && ask === countsAsked) showCounts(body.facets || {});
    } catch {
      // Counts are a help: the options still work without them.
    }
  }
  function setState(state) {
    root.dataset.state = state;
    list.setAttribute("aria-busy", state === "loading" ? "true" : "false");
  }

  function showStatic() {
    if (controller) controller.abort();
    list.replaceChildren(...staticNodes);
    list.dataset.source = "static";
    if (pager) pager.hidden = false;
    if (summary) summary.hidden = false;
    if (heading) heading.innerHTML = staticHeading;
    more.hidden = true;
    reset.hidden = true;
    status.textContent = "";
    setState("idle");
    history.replaceState(null, "", location.pathname);
    refreshCounts();
  }

  async function search(append) {
    const picked = values();
    if (!append && Object.keys(picked).length === 0) return showStatic();
    if (controller) controller.abort();
    if (!append) countsAsked++;
    controller = new AbortController();
    const params = apiParams(picked);
    params.set("limit", "50");
    if (append && cursor) params.set("cursor", cursor);
    else params.set("facets", "true");
    setState("loading");
    try {
      const response = await fetch(`${api}?${params}`, {
        signal: controller.signal,
        headers: { accept: "application/json" },
      });
      const body = await response.json();
      if (!response.ok)
        throw new Error(body.issues ? body.issues.map((i) => `${i.path} ${i.message}`).join("; ") : body.message);
      if (body.facets) showCounts(body.facets);
      const nodes = body.reviews.map(article);
      if (append) list.append(...nodes);
      else list.replaceChildren(...(nodes.length > 0 ? nodes : [el("p", { class: "empty" }, "No reviews match.")]));
      list.dataset.source = "search";
      cursor = body.next_cursor;
      more.hidden = !cursor;
      reset.hidden = false;
      if (pager) pager.hidden = true;
      if (summary) summary.hidden = true;
      if (heading) heading.textContent = `Reviews: ${describe(picked) || "all"}`;
      const shown = list.querySelectorAll("article.review").length;
      status.textContent = `${body.total} ${body.total === 1 ? "review matches" : "reviews match"} ${describe(picked)}; showing ${shown}.`;
      setState("results");
      const query = new URLSearchParams(picked);
      history.replaceState(null, "", `${location.pathname}?${query}`);
      if (!append) status.scrollIntoView({ block: "nearest", behavior: reduceMotion?.matches ? "auto" : "smooth" });
    } catch (error) {
      if (error.name === "AbortError") return;
      status.textContent = `Search failed: ${error.message || "the search service did not answer"}. The links above still work.`;
      // The list under the message is still the static page's, with its own heading and pager.
      list.replaceChildren(...staticNodes);
      if (pager) pager.hidden = false;
      if (summary) summary.hidden = false;
      if (heading) heading.innerHTML = staticHeading;
      setState("error");
    }
  }

  function start() {
    mount.replaceChildren(form, status);
    list.after(more);
    mount.hidden = false;
    root.dataset.enhanced = "true";
    setState("idle");
    // The static listing's own filter is the form's starting point.
    const kind = root.dataset.listingKind;
    const own = FILTERS.includes(kind) ? form.elements.namedItem(kind) : null;
    if (own) own.value = root.dataset.listingValue || "";
    let typing = 0;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      search(false);
    });
    form.addEventListener("change", (event) => {
      if (event.target.name !== "query") search(false);
    });
    form.elements.namedItem("query").addEventListener("input", () => {
      clearTimeout(typing);
      typing = setTimeout(() => search(false), 350);
    });
    more.addEventListener("click", () => search(true));
    reset.addEventListener("click", () => {
      form.reset();
      if (own) own.value = root.dataset.listingValue || "";
      showStatic();
    });
    // A shared or reloaded URL with filters in its query string shows those results again.
    const shared = new URLSearchParams(location.search);
    if (FIELDS.some((name) => shared.get(name))) {
      for (const name of FIELDS) {
        const field = form.elements.namedItem(name);
        if (field && shared.has(name)) field.value = shared.get(name);
      }
      search(false);
    } else refreshCounts();
  }

  // Only a JSON answer from the search API turns the form on: a CDN's 404 page or an HTML fallback
  // leaves the static page exactly as it was.
  fetch(`${api}?limit=1`, { headers: { accept: "application/json" } })
    .then((response) =>
      response.ok && (response.headers.get("content-type") || "").includes("json") ? response.json() : null,
    )
    .then((body) => {
      if (body && typeof body.total === "number") start();
    })
    .catch(() => {});
})();
