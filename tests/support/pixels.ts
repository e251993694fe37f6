import type { Page } from "puppeteer-core";

/** A rectangle of an image, in CSS pixels of the page it pictures (device scale 1). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The share (0–1) of the pixels inside `box` of an image (PNG or JPEG) that are near black,
 * decoded by Chromium in `page` (any page; its document is replaced).
 *
 * @example
 * ```ts
 * const dark = await darkShare(page, shot.bytes, "image/png", { x: 10, y: 10, width: 80, height: 20 });
 * ```
 */
export async function darkShare(
  page: Page,
  image: Uint8Array,
  mime: string,
  box: Box,
): Promise<number> {
  return (await boxPixels(page, image, mime, [box]))[0]!.dark;
}

/**
 * The colour most pixels inside each box of an image have (the median of each channel), decoded
 * as {@link darkShare} does.
 *
 * @example
 * ```ts
 * const [under] = await medianColours(page, shot.bytes, "image/png", [{ x: 10, y: 10, width: 8, height: 8 }]);
 * ```
 */
export async function medianColours(
  page: Page,
  image: Uint8Array,
  mime: string,
  boxes: readonly Box[],
): Promise<[number, number, number, number][]> {
  return (await boxPixels(page, image, mime, boxes)).map((b) => b.median);
}

/** Per box of the image: the share of near-black pixels and the median colour. */
async function boxPixels(
  page: Page,
  image: Uint8Array,
  mime: string,
  boxes: readonly Box[],
): Promise<{ dark: number; median: [number, number, number, number] }[]> {
  await page.goto("about:blank");
  const url = `data:${mime};base64,${
    btoa(Array.from(image, (b) => String.fromCharCode(b)).join(""))
  }`;
  return await page.evaluate(
    async (url: string, boxes: readonly Box[]) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      return boxes.map((box) => {
        const { data } = g.getImageData(box.x, box.y, box.width, box.height);
        let dark = 0;
        const channels: number[][] = [[], [], []];
        for (let i = 0; i < data.length; i += 4) {
          if (data[i]! < 60 && data[i + 1]! < 60 && data[i + 2]! < 60) dark++;
          for (let c = 0; c < 3; c++) channels[c]!.push(data[i + c]!);
        }
        const median = channels.map((v) => v.sort((a, b) => a - b)[v.length >> 1]!);
        return {
          dark: dark / (data.length / 4),
          median: [median[0]!, median[1]!, median[2]!, 1] as [number, number, number, number],
        };
      });
    },
    url,
    boxes,
  );
}

/**
 * Where the text of the element `selector` shows (in the main frame, or in the first `<iframe>`
 * with `inFrame`; a shadow root's host's text with `inShadow`), inset by 2 px so that anti-aliased
 * edges do not count: for {@link darkShare}.
 */
export async function textBox(
  page: Page,
  selector: string,
  where: { inFrame?: boolean; inShadow?: boolean } = {},
): Promise<Box> {
  const frame = where.inFrame ? page.mainFrame().childFrames()[0]! : page.mainFrame();
  const offset = where.inFrame
    ? await page.$eval("iframe", (f) => {
      const r = f.getBoundingClientRect();
      return { x: r.x + f.clientLeft, y: r.y + f.clientTop };
    })
    : { x: 0, y: 0 };
  const r = await frame.evaluate(
    (selector: string, inShadow: boolean) => {
      const host = document.querySelector(selector)!;
      const range = document.createRange();
      range.selectNodeContents(inShadow ? host.shadowRoot! : host);
      const { x, y, width, height } = range.getBoundingClientRect();
      return { x, y, width, height };
    },
    selector,
    where.inShadow ?? false,
  );
  return {
    x: Math.ceil(offset.x + r.x) + 2,
    y: Math.ceil(offset.y + r.y) + 2,
    width: Math.floor(r.width) - 4,
    height: Math.floor(r.height) - 4,
  };
}
