import { describe, expect, it } from 'vitest';
import { DEFAULT_INITIAL_PROMPT } from '../../../../core/common/engine/decodeSettings';
import { estimatePromptTokens, PROJECT_PROMPT_TOKEN_CAP, projectInitialPrompt } from '../../../../core/common/engine/initialPrompt';
import type { LabelDef } from '../../../../core/common/parser/parseTypes';

const politeness: LabelDef[] = [
  { name: 'Polite', synonyms: { en: ['courteous'], de: ['höflich'] } },
  { name: 'Impolite', synonyms: { en: ['rude'], de: ['unhöflich'] } },
  { name: 'Neutral', synonyms: { de: ['neutral'] } },
];

describe("whisper's initial prompt for a project", () => {
  it('carries a commit phrase with every label, then (as the cap allows) synonyms and other phrases, then the filler prompt', () => {
    expect(projectInitialPrompt({ labels: politeness, languages: ['en'] })).toBe(
      `I label this polite, impolite, neutral. ${DEFAULT_INITIAL_PROMPT}`,
    );
    // without a cap: the synonyms of the active languages and one example of every commit phrase
    const whole = projectInitialPrompt({ labels: politeness, languages: ['en'] }, 1000);
    expect(
      whole.startsWith('I label this polite, impolite, neutral. Courteous, rude. I would label this polite. Label this impolite.'),
    ).toBe(true);
    expect(whole).toContain('Final answer polite.');
    expect(whole).not.toContain('höflich');
  });

  it('German: the German synonyms, no inverted phrase alone, and German filled pauses after the English ones', () => {
    // "Ich wähle höflich, unhöflich, neutral." is over the cap: the names alone
    expect(projectInitialPrompt({ labels: politeness, languages: ['de'] })).toBe(
      `Polite, Impolite, Neutral. ${DEFAULT_INITIAL_PROMPT} Äh, ähm, hm.`,
    );
    const whole = projectInitialPrompt({ labels: politeness, languages: ['de'] }, 1000);
    expect(whole.startsWith('Ich wähle höflich, unhöflich, neutral. Meine antwort ist höflich.')).toBe(true);
    expect(whole).toContain('Ich würde das als');
    expect(whole).not.toMatch(/(Wähle|Nehme|Sage) ich/);
    expect(whole.endsWith(`${DEFAULT_INITIAL_PROMPT} Äh, ähm, hm.`)).toBe(true);
  });

  it("uses the project's own commit phrases for a language that has them", () => {
    expect(projectInitialPrompt({ labels: politeness, languages: ['en'], stems: { en: ['I vote (for)'] } }, 1000)).toBe(
      `I vote polite, impolite, neutral. Courteous, rude. ${DEFAULT_INITIAL_PROMPT}`,
    );
  });

  it("caps the project's words in estimated tokens; the filler prompt always comes last", () => {
    const many: LabelDef[] = Array.from({ length: 60 }, (_, i) => ({ name: `Category number ${i}`, synonyms: {} }));
    const prompt = projectInitialPrompt({ labels: [...politeness, ...many], languages: ['en', 'de'] });
    expect(prompt.endsWith(`${DEFAULT_INITIAL_PROMPT} Äh, ähm, hm.`)).toBe(true);
    const projectPart = prompt.slice(0, prompt.indexOf(DEFAULT_INITIAL_PROMPT));
    expect(estimatePromptTokens(projectPart)).toBeLessThanOrEqual(PROJECT_PROMPT_TOKEN_CAP);
    // the phrase with 63 labels is too long: the names alone, as many as fit
    expect(projectPart.startsWith('Polite, Impolite, Neutral')).toBe(true);
    expect(projectPart).not.toContain('Category number 59');
  });

  it('estimates tokens as whisper.cpp cuts them: two ASCII letters a token, a byte of anything else a token', () => {
    expect(estimatePromptTokens('')).toBe(0);
    expect(estimatePromptTokens('Polite,')).toBe(4);
    expect(estimatePromptTokens('höflich')).toBe(6); // h · ö (2 bytes) · flich
    expect(estimatePromptTokens('a ähm')).toBe(5); // a space before a non-ASCII letter is a token of its own
    expect(estimatePromptTokens('Um, uh.')).toBe(4);
  });
});
