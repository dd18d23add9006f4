/** The favourites list's empty text (discovery spec §2). */
export const NO_FAVOURITES_TEXT =
  "You don't have favorite accounts yet. Add them by clicking on ⭐️ on the account page or on the Interact tab.";
