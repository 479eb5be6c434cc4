// The review widget tells the page that frames it how tall it is, so that page can size the iframe
// (see the README's "Embedding" snippet). Only a height is sent: nothing about the visitor.
(() => {
  if (window.parent === window) return;
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "reviews-widget:height", height }, "*");
  };
  if (window.ResizeObserver) new ResizeObserver(send).observe(document.documentElement);
  window.addEventListener("load", send);
  send();
})();
