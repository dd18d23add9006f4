import { lazy, Suspense, useState } from 'react';
import { ExportShell, ExportTrigger, type ExportButtonProps } from './export-parts';

const loadControl = () => import('./ExportControl');
const ExportControl = lazy(loadControl);

/**
 * 'Export' (CSV / JSON menu) of a table, the one export control of the app: the API streams the rows; the
 * page shows how many have arrived (of the total when the list knows it), can cancel, and saves the file when
 * the last one is in. Until the first click only the button is there: the menu, the stream and the progress
 * (./ExportControl, with MUI Menu, Button, LinearProgress and Alert) load then (or when the pointer or the
 * focus comes to the button), so that the lists of first screens (home's) do not download them.
 */
export function ExportButton(props: ExportButtonProps) {
  const [used, setUsed] = useState(false);
  const idle = (
    <ExportShell
      what={props.what}
      status=""
      trigger={
        <ExportTrigger
          what={props.what}
          open={false}
          onWarm={() => void loadControl()}
          onClick={() => setUsed(true)}
        />
      }
    />
  );
  if (!used) return idle;
  return (
    <Suspense fallback={idle}>
      <ExportControl {...props} />
    </Suspense>
  );
}
