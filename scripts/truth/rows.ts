/// <reference lib="dom" />
/**
 * The truth bench's tasks on the UI Test Automation Playground (`../shared/suites/uitap`): per
 * trap page, the actions a capable model takes after reading the page's task, the answer it then
 * gives, and a check in the page's own world that the answer is right (each check is a
 * self-contained function, run with `page.evaluate`).
 *
 * @module
 */

/**
 * Which element a step acts on: the view's line that matches, the view's element with that HTML
 * id or class, or the first element `find` answers for a text (as a model does for what the view
 * does not list).
 */
export type Target = RegExp | { htmlId: string } | { cls: string } | { find: string };

/**
 * One scripted action. A click may be one the agent must refuse (`refused`: what its error
 * says), as the trap page asks: a refusal is then the step done, and a click done is a failure.
 */
export type Step =
  | { click: Target; refused?: RegExp }
  | { type: Target; text: string }
  | { select: Target; option: string }
  | { press: string; on?: Target }
  /** The page, or the first scrollable area the view names (`scroll with [N]`). */
  | { scroll: "page" | "area" }
  | { wait?: string; seconds: number }
  /** Answers the prompt the page holds open. */
  | { answer: string }
  /** Accepts the confirm dialog the page holds open (as a model's Enter does). */
  | { accept: true };

/** One task: a page, its steps, the answer a model gives, and whether that answer is right. */
export interface Task {
  page: string;
  steps: Step[];
  answer: string;
  /** True when the answer is right, read in the page's world after the steps. */
  right: () => boolean;
}

/** The tasks, one or two per trap page that an action can meet. */
export const TASKS: Task[] = [
  {
    page: "/click",
    steps: [{ click: /Button That Ignores DOM Click Event/ }],
    answer: "Clicked the button; it turned green.",
    right: () => document.getElementById("badButton")!.className.includes("btn-success"),
  },
  {
    page: "/classattr",
    steps: [{ click: { cls: "btn-primary" } }],
    answer: "Clicked the blue (btn-primary) button and accepted its alert.",
    right: () => true,
  },
  {
    page: "/hiddenlayers",
    // The page's trap: the green button must not be hit twice, as the blue one now covers it.
    steps: [
      { click: { htmlId: "greenButton" } },
      { click: /Button/, refused: /covered by <button id="blueButton">/ },
    ],
    answer: "Clicked the green button once; a second click was refused: the blue button covers it.",
    right: () => document.getElementById("blueButton") !== null,
  },
  {
    page: "/visibility",
    steps: [{ click: /\] <button[^>]*> Hide$/ }],
    answer: "Pressed Hide: the other buttons are now hidden, removed or covered.",
    right: () => document.getElementById("removedButton") === null,
  },
  {
    page: "/overlapped",
    steps: [{ type: /Name$/, text: "Alice" }],
    answer: "Entered Alice into the Name field.",
    right: () => (document.getElementById("name") as HTMLInputElement).value === "Alice",
  },
  {
    page: "/textinput",
    steps: [{ type: /Set New Button Name/, text: "Go now" }, { click: /Button That Should/ }],
    answer: 'Typed "Go now" and clicked the button; its name changed to "Go now".',
    right: () => document.getElementById("updatingButton")!.textContent === "Go now",
  },
  {
    page: "/dynamicid",
    steps: [{ click: /Button with Dynamic ID/ }],
    answer: "Clicked the button with the dynamic ID.",
    right: () => true,
  },
  {
    page: "/nbsp",
    steps: [{ click: /My Button/ }],
    answer: "Clicked My Button.",
    right: () => true,
  },
  {
    page: "/mouseover",
    steps: [{ click: /Click me/ }, { click: /Click me/ }],
    answer: "Clicked the link twice; the click count is now 2.",
    right: () => document.getElementById("clickCount")!.textContent === "2",
  },
  {
    page: "/sampleapp",
    steps: [
      { type: /User Name/, text: "Ann" },
      { type: /\] <input type=password>/, text: "pwd" },
      { click: /Log In/ },
    ],
    answer: "Logged in as Ann; the status reads Welcome, Ann!",
    right: () => document.getElementById("loginstatus")!.textContent!.trim() === "Welcome, Ann!",
  },
  {
    page: "/alerts",
    steps: [
      { click: /\] <button[^>]*> Alert$/ },
      { click: /\] <button[^>]*> Confirm$/ },
      { accept: true },
      { click: /\] <button[^>]*> Prompt$/ },
      { answer: "tests" },
    ],
    answer: "Clicked Alert, Confirm and Prompt, accepted each and answered the prompt.",
    right: () => true,
  },
  {
    page: "/disabledinput",
    steps: [
      { click: /Enable Edit Field/ },
      { wait: "Input Enabled", seconds: 10 },
      { type: /Edit Field$/, text: "hello" },
    ],
    answer: "Typed hello into the edit field once it was enabled.",
    right: () => (document.getElementById("inputField") as HTMLInputElement).value === "hello",
  },
  {
    page: "/animation",
    steps: [
      { click: /Start Animation/ },
      { wait: "Animation done", seconds: 10 },
      { click: /Moving Target/ },
    ],
    answer: "Clicked the moving target after the animation; its class no longer contains spin.",
    right: () => !document.getElementById("opstatus")!.textContent!.trim().includes("spin"),
  },
  {
    page: "/progressbar",
    steps: [{ click: /\] <button[^>]*> Start$/ }, { wait: "75%", seconds: 40 }, {
      click: /\] <button[^>]*> Stop$/,
    }],
    answer: "Started the progress bar and stopped it at about 75%.",
    right: () =>
      Math.abs(parseInt(document.getElementById("progressBar")!.textContent!.trim()) - 75) <= 5,
  },
  {
    page: "/ajax",
    steps: [
      { click: /Button Triggering AJAX Request/ },
      { wait: "Data loaded with AJAX get request.", seconds: 20 },
    ],
    answer: "Clicked the button; after waiting, the label reads Data loaded with AJAX get request.",
    right: () =>
      document.getElementById("content")!.textContent!.trim().includes(
        "Data loaded with AJAX get request.",
      ),
  },
  {
    page: "/clientdelay",
    steps: [
      { click: /Button Triggering Client Side Logic/ },
      { wait: "Data calculated on the client side.", seconds: 20 },
    ],
    answer: "Clicked the button; the label reads Data calculated on the client side.",
    right: () =>
      document.getElementById("content")!.textContent!.trim().includes(
        "Data calculated on the client side.",
      ),
  },
  {
    page: "/loaddelay",
    steps: [{ click: /Button Appearing After Delay/ }],
    answer: "Opened the page once it loaded and clicked the button.",
    right: () => true,
  },
  {
    page: "/scrollbars",
    steps: [{ scroll: "area" }, { click: { find: "Hiding Button" } }],
    answer: "Scrolled to the hiding button and clicked it.",
    right: () => true,
  },
  {
    page: "/clearinput",
    steps: [
      { type: { htmlId: "clearInput" }, text: "" },
      { type: { htmlId: "clearEmail" }, text: "" },
    ],
    answer: "Cleared the text field and the email field.",
    right: () =>
      (document.getElementById("clearInput") as HTMLInputElement).value === "" &&
      (document.getElementById("clearEmail") as HTMLInputElement).value === "",
  },
  {
    page: "/select",
    steps: [
      { select: /Programming Language/, option: "Python" },
      { select: /City/, option: "San Francisco" },
    ],
    answer: "Selected Python and San Francisco; the status labels show them.",
    right: () => document.body.innerText.includes("Python"),
  },
  {
    page: "/shadowdom",
    steps: [{ click: /\(icon: generate\)/ }, { click: /\(icon: copy\)/ }],
    answer: "Generated a new GUID and copied it to the clipboard.",
    right: () => true,
  },
  {
    page: "/autowait",
    steps: [
      { click: /Apply 3s/ },
      { wait: undefined, seconds: 4 },
      { click: /\] <button[^>]*> Button$/ },
    ],
    answer: "Applied the settings and clicked the button once it was interactable again.",
    right: () => true,
  },
  {
    page: "/frames",
    steps: [{ click: /\] <button[^>]*> Click me$/ }, { click: /\] <button[^>]*> Primary$/ }],
    answer: "Clicked Click me and Primary in the outer frame.",
    right: () => true,
  },
  {
    page: "/scrolltoclick",
    steps: [{ scroll: "page" }, { click: /\] <button[^>]*> Button 1$/ }],
    answer: "Scrolled down and clicked the first target button; it turned green.",
    right: () => document.body.innerText.includes("Clicked!"),
  },
];
