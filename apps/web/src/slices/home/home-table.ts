/** Rows of the home table (discovery spec §9); the route loader asks for the same page. */
export const HOME_TABLE_ROWS = 3;
