import Skeleton from '@mui/material/Skeleton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';

export const LIST_LOAD_ERROR = 'The list could not be loaded.';

interface Props {
  /** The list's query state: placeholder rows while pending, one message row when nothing is shown. */
  pending: boolean;
  error: boolean;
  empty: boolean;
  /** Columns of the table (the rows span them all). */
  columns: number;
  /** Shown when the list is empty (and loaded without error). */
  emptyText: string;
  /** Placeholder rows while the first page loads. */
  skeletonRows?: number;
}

/** The rows a server-paged table shows instead of its data: loading placeholders, or the empty / error line. */
export function ListStateRows({ pending, error, empty, columns, emptyText, skeletonRows = 1 }: Props) {
  if (pending)
    return Array.from({ length: skeletonRows }, (_, i) => (
      <TableRow key={i}>
        <TableCell colSpan={columns}>
          <Skeleton variant="text" />
        </TableCell>
      </TableRow>
    ));
  if (!empty) return null;
  return (
    <TableRow>
      <TableCell colSpan={columns} align="center" sx={{ color: 'text.secondary', py: 3 }}>
        {error ? LIST_LOAD_ERROR : emptyText}
      </TableCell>
    </TableRow>
  );
}
