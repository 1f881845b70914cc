import { fail, InTurn, inTurn, readInTurn, readText } from '@board/kernel';

export const QUESTION_TEXT_MAX = 500;
export const OPTIONS_MIN = 2;
export const OPTIONS_MAX = 10;
export const OPTION_MAX = 100;
export const ANSWER_MAX = 2000;

export interface QuestionAsked {
  text: string;
  /** null: a free answer. */
  options: string[] | null;
  multiple: boolean;
}

export interface Answer {
  text: string;
  /** The chosen options in the order they were offered; null for a free answer. */
  choices: string[] | null;
  by: { id: string; name: string };
  at: string;
}

export interface Question extends QuestionAsked {
  id: string;
  askedAt: string;
  answer: Answer | null;
}

const sameOption = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** `question: { text, options?, multiple? }` of a report: its text 1–500, 2–10 distinct options of 1–100, or none. */
export function readQuestion(value: unknown): QuestionAsked {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('run.question_text');
  const body = value as Record<string, unknown>;
  const text = typeof body.text === 'string' ? body.text.trim() : '';
  if (text.length === 0 || [...text].length > QUESTION_TEXT_MAX) fail('run.question_text');
  let options: string[] | null = null;
  if (body.options !== undefined && body.options !== null) {
    if (!Array.isArray(body.options) || body.options.length < OPTIONS_MIN || body.options.length > OPTIONS_MAX) fail('run.question_options');
    options = (body.options as unknown[]).map((o) => {
      const option = typeof o === 'string' ? o.trim() : '';
      if (option.length === 0 || [...option].length > OPTION_MAX) fail('run.question_options');
      return option;
    });
    if (options.some((o, i) => options!.findIndex((p) => sameOption(o, p)) !== i)) fail('run.question_options');
  }
  if (body.multiple !== undefined && body.multiple !== null && typeof body.multiple !== 'boolean') fail('run.question_options');
  return { text, options, multiple: options !== null && body.multiple === true };
}

/**
 * An answer as its request DTO read it: text for a free question, the picked options for a
 * choice. Which of the two counts is the stored question's, so the text's refusal waits its turn;
 * a value that is no list of text picks nothing (null).
 */
export interface AnswerSent {
  text: InTurn<string>;
  picked: string[] | null;
}

export function readAnswerSent(value: unknown): AnswerSent {
  const text = readInTurn(() => readText(value, 'answer', { max: ANSWER_MAX, required: true }));
  const picked = Array.isArray(value) && value.every((p) => typeof p === 'string') ? (value as string[]) : null;
  return { text, picked };
}

/**
 * A person's answer to `question`: for options, the offered strings exactly as offered (one, or
 * one or more without repeats when `multiple`), kept in offered order; for a free question, text.
 */
export function readAnswer(question: QuestionAsked, sent: AnswerSent): { text: string; choices: string[] | null } {
  if (question.options === null) return { text: inTurn(sent.text), choices: null };
  const offered = question.options;
  const { picked } = sent;
  if (!picked || picked.length === 0) fail('run.answer_choice');
  if (!question.multiple && picked.length !== 1) fail('run.answer_choice');
  if (picked.some((p) => !offered.includes(p))) fail('run.answer_choice');
  if (new Set(picked).size !== picked.length) fail('run.answer_choice');
  const choices = offered.filter((o) => picked.includes(o));
  return { text: choices.join(', '), choices };
}
