import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * An attendee's identifiers, all random: the id (`att_…`), the handle hosts see in their lists (two words and four
 * digits, so a host can tell two people apart without learning anything about them), a session token and the secret
 * of the private calendar address. Only a SHA-256 hash of a session token is stored; a random 256-bit secret needs no
 * slow hash.
 */
const WORDS_A = [
  'amber',
  'brisk',
  'calm',
  'deft',
  'eager',
  'fair',
  'gentle',
  'hardy',
  'keen',
  'lucid',
  'merry',
  'nimble',
  'plucky',
  'quiet',
  'rapid',
  'steady',
  'tidy',
  'vivid',
  'witty',
  'zesty',
];
const WORDS_B = [
  'alder',
  'badger',
  'crane',
  'dipper',
  'egret',
  'finch',
  'gecko',
  'heron',
  'ibex',
  'jay',
  'kestrel',
  'lynx',
  'marmot',
  'newt',
  'otter',
  'puffin',
  'robin',
  'stoat',
  'trout',
  'wren',
];

export function newAttendeeId(): string {
  return `att_${randomBytes(9).toString('base64url')}`;
}

export function newHandle(): string {
  const pick = (words: string[]) => words[randomInt(words.length)]!;
  return `${pick(WORDS_A)}-${pick(WORDS_B)}-${String(randomInt(10_000)).padStart(4, '0')}`;
}

/** A 256-bit secret for a session cookie, a calendar address or a challenge id. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
