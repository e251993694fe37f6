/// <reference lib="dom" />
/**
 * What an action changed, as a person would notice it: measured before and after the action
 * (focus, visible text, work in progress, the target's state) and the DOM changes in between,
 * counting only what the model can see and naming the most salient new content first.
 *
 * A composition of the library's top layer: it starts and ends an action for the effects feature
 * (the DOM changes), for settling (the page's activity, the work the action sets off, the busy
 * signs at its start) and reads the target's state, so no feature needs another.
 *
 * @module
 */
import { endAction, startAction } from "./core/activity.ts";
import { tellAction } from "./settle/work.ts";
import { busySignals } from "./settle/busy.ts";
import { deepActiveElement } from "./core/dom.ts";
import { type ControlState, controlState } from "./effects/effect_states.ts";
import {
  type DomChanges,
  finishCounting,
  startCounting,
  targetRestyled,
} from "./effects/effect_count.ts";
import { docState } from "./core/state.ts";
import { describeFocus } from "./core/names.ts";

/** The state of the acted-on element, as a person would see it. */
export interface TargetState extends ControlState {
  connected: boolean;
  /** Drawn on screen (not `display: none`, `visibility: hidden` or zero-sized). */
  visible: boolean;
  /** It has the keyboard focus. */
  focused: boolean;
  /**
   * At the end, when its attributes and its colours changed (a class that marks it chosen): the
   * state that look shows as the page view derives it (`selected`, `current`, `pressed`,
   * `checked`), or "" when it shows none.
   */
  restyled?: string;
}

/** A snapshot of what a person notices: focus, visible text, busy indicators, the target. */
export interface EffectSnapshot {
  /** Short description of the focused element; "" when nothing in particular has focus. */
  focus: string;
  /** At the start: what shows work in progress (`"Loading…"`, `a progress bar`), one each. */
  busy?: string[];
  scrollY: number;
  target?: TargetState;
}

/**
 * Takes a snapshot of what a person notices. With `"start"` it also starts counting DOM changes
 * in this document (`passive` for an action that only watches, a wait); with `"end"` it stops
 * and reports them in `changes`. With `token`, it tells the timer recorder too (`timers.ts`).
 */
export function measureEffects(
  target: Element | null,
  phase: "start" | "end",
  passive = false,
  token = "",
): EffectSnapshot & { changes?: DomChanges } {
  const state = docState();
  const text = document.body?.innerText ?? "";
  const old = state.effects;
  old?.observer.disconnect();
  delete state.effects;
  let changes: DomChanges | undefined;
  if (phase === "start") {
    startAction(passive);
    tellAction(token, "start", passive);
    state.effects = startCounting(target, text);
  } else {
    endAction();
    tellAction(token, "end");
    changes = finishCounting(old, text);
  }
  const out: EffectSnapshot & { changes?: DomChanges } = snapshot(text, phase);
  if (target) out.target = stateOf(target);
  const restyled = target && old && phase === "end" ? targetRestyled(old) : undefined;
  if (restyled !== undefined) out.target!.restyled = restyled;
  if (changes) out.changes = changes;
  return out;
}

function snapshot(text: string, phase: "start" | "end"): EffectSnapshot {
  const active = deepActiveElement();
  const out: EffectSnapshot = {
    focus: active ? describeFocus(active) : "",
    scrollY: Math.round(scrollY),
  };
  if (phase === "start") out.busy = busySignals(text);
  return out;
}

function stateOf(el: Element): TargetState {
  const r = el.getBoundingClientRect();
  return {
    connected: el.isConnected,
    visible: el.checkVisibility({ visibilityProperty: true }) && r.width > 0 && r.height > 0,
    focused: deepActiveElement() === el,
    ...controlState(el),
  };
}
