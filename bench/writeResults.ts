import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** Writes a benchmark's markdown results, formatted as the linter wants them, so a run leaves it committable. */
export function writeResults(file: string, markdown: string): void {
  writeFileSync(file, markdown);
  execFileSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
}
