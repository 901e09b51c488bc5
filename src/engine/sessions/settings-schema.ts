import { z } from 'zod';

/** Keyword phrases per language; a word ending in `*` matches any word starting with it. */
export const Keywords = z
  .object({
    en: z.array(z.string().min(1)),
    fr: z.array(z.string().min(1)),
    de: z.array(z.string().min(1)),
    es: z.array(z.string().min(1)),
    nl: z.array(z.string().min(1)),
  })
  .strict();
export type Keywords = z.infer<typeof Keywords>;

/**
 * The schema of the engine's tunables (data/knowledge/settings.yaml) and of the two scales the other
 * knowledge files share with it. Apart from knowledge-schema.ts, which re-exports them, so that each file
 * stays one reading.
 */

/** How strongly a cause shows an outcome: the share of that cause's cases showing it beyond the baseline. */
export const Strength = z.enum(['weak', 'moderate', 'strong', 'decisive']);
export type Strength = z.infer<typeof Strength>;

/** How strongly a symptom makes a cause more likely before any action. */
export const Shift = z.enum(['weak', 'moderate', 'strong']);
export type Shift = z.infer<typeof Shift>;

export const Settings = z
  .object({
    version: z.string().min(1),
    strengths: z.record(Strength, z.number().gt(0).lt(1)),
    shifts: z.record(Shift, z.number().gt(1)),
    description: z
      .object({
        /** A cause that explains none of the recognised symptoms is multiplied by this. */
        unlisted: z.number().gt(0).max(1),
        /** A cause the description names (by its keywords) is multiplied by this. */
        named: z.number().min(1),
        /** Ceiling of the combined factor the description gives one cause (its phrases overlap). */
        max_factor: z.number().gt(1),
        /** Weight of a reading stated in the description against one taken on site (see statements.yaml). */
        stated_reliability: z.number().gt(0).lt(1),
        /** Words allowed between a statement's subject and its outcome phrase. */
        stated_window: z.number().int().min(0),
      })
      .strict(),
    residual: z
      .object({
        prior: z.number().gt(0).lt(1),
        /** Weight of the uniform distribution in the residual's likelihoods (the rest is the baseline). */
        uniform_mix: z.number().min(0).max(1),
        escalate_at: z.number().gt(0).max(1),
      })
      .strict(),
    conclusion: z
      .object({
        threshold: z.number().gt(0.5).lt(1),
        replacement_threshold: z.number().gt(0.5).lt(1),
        /** A leader below the thresholds concludes at this share once no check left could unseat it. */
        settled_threshold: z.number().gt(0.5).lt(1),
        /** Answers (with a value) needed before concluding: the description alone never closes a case. */
        min_answers: z.number().int().min(0),
        /** A session that hands the job on names its leading cause as the suspect from this share. */
        suspect_at: z.number().gt(0).lt(1).optional(),
        /**
         * Before concluding, a rival the evidence has not told apart from the leader (its likelihood at
         * least `likelihood_ratio` of the leader's, its share at least `min_rival`) is separated by an
         * open check whose outcomes differ between the two by at least `min_distance` (total variation).
         */
        separation: z
          .object({
            likelihood_ratio: z.number().gt(0).lte(1),
            min_rival: z.number().gt(0).lt(1),
            min_distance: z.number().gt(0).lte(1),
            /** A job handed on names no suspect while a rival at `likelihood_ratio` of its share was not told apart. */
            confirm_suspect: z.boolean().default(false),
            /** A conclusion needs the same, or the job is handed on with the ranked repairs. */
            confirm_conclusion: z.boolean().default(false),
          })
          .strict()
          .optional(),
      })
      .strict(),
    budget_turns: z.number().int().positive(),
    cost: z
      .object({
        overhead_minutes: z.number().min(0),
        per_invasiveness_level: z.number().min(0),
        per_risk_level: z.number().min(0),
        escalation: z.number().positive(),
      })
      .strict(),
    selection: z
      .object({
        min_gain_bits: z.number().positive(),
        quick_minutes: z.number().min(0).default(0),
        glance_minutes: z.number().min(0).default(0),
        quick_min_gain: z.number().positive().default(0.05),
        /**
         * Once the leading remedy group holds `lead` or more (the complaint points somewhere), a check is
         * asked only when it tells at least `min_gain_bits` about that group (whether the cause is in it
         * or not), and a repair is tried as a test only when it clears the fault with at least
         * `test_repair_min_fix`: no water gauge, ΔT, isolation valves or heating curve on a
         * communication fault.
         */
        when_led: z
          .object({
            lead: z.number().gt(0).max(1),
            min_gain_bits: z.number().positive(),
            test_repair_min_fix: z.number().min(0).lt(1),
          })
          .strict()
          .optional(),
        /**
         * Minute-equivalents added, when choosing the next check only, to one that needs an instrument:
         * at equal information, what anyone can see, hear or read on the unit comes first. Not a cost of
         * the work (the repair order and the checks that could rule a part out keep the plain cost).
         */
        instrument_penalty: z.number().min(0).default(0),
        /** Among checks within this share of the best information per minute, one needing no meter. */
        instrument_tie_margin: z.number().min(0).lt(1).default(0),
        /** A check rules a cause out when one of its outcomes has likelihood ratio at most this. */
        rule_out_ratio: z.number().gt(0).lt(1),
        /** Unanswered steps in a row after which no further check is asked (0: never stop early). */
        unanswered_streak: z.number().int().min(0).default(0),
        /**
         * The leader's own repair, when it swaps no part, is tried as soon as no other cause explains the
         * answers at `separation.likelihood_ratio` of the leader's likelihood.
         */
        leader_repair_first: z.boolean().default(true),
        /**
         * A leader told apart from every rival, whose part a check could still rule out, is named as the
         * suspect of a job handed on when the last check came back unknown, instead of asking on.
         */
        hand_on_separated: z.boolean().default(true),
        /**
         * Repairs as tests (expected cost of repair): the repair swapping no part whose expected cost to
         * resolution (its cost, then the p/C repair order if the fault stays) is lowest is tried when it
         * undercuts the expected cost of every check asked first, each check's answer counted at the
         * chance the technician gives one; a repair so tried that clears the fault settles the case at
         * `settled_threshold`.
         */
        repair_as_test: z.boolean().default(false),
        /** A repair carried out (the fault cleared or not) does not end a streak of unread checks. */
        streak_through_repairs: z.boolean().default(false),
        /** A repair that restores a quantity (`restores`) is tried only once that quantity has been read. */
        restore_needs_reading: z.boolean().default(false),
      })
      .strict(),
    repair: z
      .object({ fixed_if_other: z.number().gt(0).lt(1), fixed_if_residual: z.number().gt(0).lt(1) })
      .strict(),
    /**
     * The reading a session opened on a fault code already holds (the code is on the display): taken as
     * evidence from the start, not asked, and not counted among the answers.
     */
    code_reading: z
      .object({ quantity: z.string().min(1), outcome: z.string().min(1) })
      .strict()
      .optional(),
    manual: z
      .object({
        matched_boost: z.number().gt(1),
        unmatched_weight: z.number().positive(),
        step_yes_if_listed: z.number().gt(0).lt(1),
        step_yes_otherwise: z.number().gt(0).lt(1),
        /** Words that make a manual step a part swap rather than a check, by language (`*` ends a prefix). */
        replacement_words: Keywords,
      })
      .strict(),
  })
  .strict();
export type Settings = z.infer<typeof Settings>;
