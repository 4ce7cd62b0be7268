/** A module for a test to load, after the rig made its first load fail (see failNextLoad in rig.ts). */
export const loaded = true;
