// Types of scripts/floors.mjs, for the tests that import it.
export interface Room {
  floor: number;
  room: string;
  is?: string;
  may?: string[];
  as?: Record<string, string>;
  why?: string;
}
export interface FloorTable {
  root: string;
  rooms: Room[];
  inside?: Record<string, Room[]>;
  reasons?: Record<string, string>;
}
export const BEGIN: string;
export const END: string;
export function checkTable(table: FloorTable): void;
export function overridesOf(table: FloorTable): unknown[];
export function docsBlockOf(table: FloorTable): string;
export function unplacedIn(table: FloorTable, root: string): string[];
export function run(root: string, options: { check: boolean }): string[];
