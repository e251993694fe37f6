/**
 * The live view's zoom of the picture a person solves a check on. The picture of a 1280 px page
 * fitted to a 400 px screen draws everything at under a third of its size: a check box of 24 px
 * at 7 px, too small to tap. Where the page reported the check's box (the wall's `box`), the
 * picture is drawn larger inside a frame of the fitted picture's size, around the check: at the
 * page's own size or up to a quarter larger (as far as the check and a margin fit the frame), so
 * that the providers' check boxes (24 px and more in the page) are 24 px or more wherever the
 * check itself fits the frame. The picture keeps its whole box, only clipped by the frame, so a
 * press is read off that box as before (the one mapping in `pictureInput`). "Whole page" shows
 * all of it again. Uses `button` and `say` of the page's script (live_script.ts).
 */
export const LIVE_ZOOM = `
// The largest zoom (screen pixels per page pixel), the page's margin kept around the check, and
// the least gain that is worth hiding the rest of the page for.
const ZOOM = { scale: 1.25, margin: 12, gain: 1.1 };
function pictureZoom(frame, img) {
  let box = null, wanted = true;
  const toggle = button("Whole page", async () => {
    wanted = !wanted;
    apply();
    say(wanted ? "The picture is zoomed to the check" : "The picture shows the whole page");
  }, "btn btn-small zoom-toggle");
  toggle.hidden = true;
  const reset = () => {
    frame.classList.remove("zoomed");
    for (const s of [frame.style, img.style]) s.width = s.height = s.left = s.top = "";
  };
  // Measured on the picture as fitted (reset first): the frame keeps that size.
  const apply = () => {
    reset();
    const r = img.getBoundingClientRect();
    const view = box?.view;
    if (!view || !r.width || !img.naturalWidth) return void (toggle.hidden = true);
    // As large as the check fits, with its margin while that leaves it at its own size or more.
    const fits = (margin) => Math.min(r.width / (box.width + 2 * margin), r.height / (box.height + 2 * margin));
    const scale = Math.min(ZOOM.scale, fits(0), Math.max(1, fits(ZOOM.margin)));
    const helps = scale > (r.width / view.width) * ZOOM.gain;
    toggle.hidden = !helps;
    toggle.textContent = wanted ? "Whole page" : "Zoom to the check";
    if (!helps || !wanted) return;
    const width = view.width * scale, height = width * img.naturalHeight / img.naturalWidth;
    // The check's middle (a fraction of the page) in the middle of the frame, within the picture.
    const middle = (at, whole, shown) => Math.min(Math.max(0, at * whole - shown / 2), whole - shown);
    const left = middle((box.x + box.width / 2) / view.width, width, r.width);
    const top = middle((box.y + box.height / 2) / view.height, height, r.height);
    frame.classList.add("zoomed");
    frame.style.width = r.width + "px";
    frame.style.height = r.height + "px";
    img.style.width = width + "px";
    img.style.height = height + "px";
    img.style.left = -left + "px";
    img.style.top = -top + "px";
  };
  return { toggle, reset, apply, set: (next) => void (box = next) };
}
`;
