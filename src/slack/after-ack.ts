import { nextTurn } from '../util/turns.js';

/**
 * Called right after `ack()`: the rest of the listener (platform calls, cards) resumes on a later
 * turn of the event loop, so that requests already waiting get their own acks first and a burst of
 * clicks is answered within Slack's 3 s, whatever the platform's pace.
 */
export const afterAck = nextTurn;
